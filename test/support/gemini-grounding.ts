/** One grounded Gemini answer's text and pages, shared by the grounding and stream-decoder tests. */
export const bytes = (s: string) => new TextEncoder().encode(s).length;
export const SENTENCE = 'Spain won Euro 2024, beating England 2–1.'; // the en dash is 3 UTF-8 bytes
export const CAFE = ' Fans filled every café ☕ in Madrid.';
export const UEFA = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/uefa';
export const BBC = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/bbc';
export const PAGES = [{ web: { uri: UEFA, title: 'uefa.com' } }, { web: { uri: BBC, title: 'bbc.com' } }];

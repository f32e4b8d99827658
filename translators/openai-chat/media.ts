/** `data:` URLs and media-type helpers for image, audio and file parts. */

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** OpenAI `input_audio.format` for a canonical audio part (only `wav` and `mp3` exist). */
export function audioFormatOf(format: string | undefined, mediaType: string | undefined): 'wav' | 'mp3' | undefined {
  // Stryker disable next-line StringLiteral: no format and any other word that is neither wav nor mp3 fall through alike
  const f = (format ?? '').toLowerCase();
  if (f === 'wav' || f === 'mp3') return f;
  // Stryker disable next-line StringLiteral: no media type and any unknown one reach the default alike
  switch ((mediaType ?? '').toLowerCase()) {
    case 'audio/wav':
    case 'audio/x-wav':
    case 'audio/wave':
      return 'wav';
    case 'audio/mpeg':
    case 'audio/mp3':
      return 'mp3';
    // Stryker disable next-line ConditionalExpression: without the default the switch falls off the end, returning undefined too
    default:
      return undefined;
  }
}

export function audioMediaType(format: 'wav' | 'mp3'): string {
  return format === 'wav' ? 'audio/wav' : 'audio/mpeg';
}

const byExtension: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** A media type guessed from a filename (OpenAI `file.file_data` may be bare base64). */
export function mediaTypeOfFilename(filename: string | undefined): string {
  // Stryker disable next-line OptionalChaining: split always returns at least one element, so pop never gives undefined
  const ext = filename?.split('.').pop()?.toLowerCase() ?? '';
  return byExtension[ext] ?? 'application/octet-stream';
}

/**
 * Text and thought text of a response `content`: OpenAI sends a string; Mistral-style servers send
 * parts (`{type:'text',text}`, `{type:'thinking',thinking:[{type:'text',text}]}`).
 */
export function splitContent(content: string | readonly unknown[] | null | undefined): { text: string; reasoning: string } {
  if (typeof content === 'string') return { text: content, reasoning: '' };
  let text = '';
  let reasoning = '';
  // Stryker disable next-line ArrayDeclaration: a string part is skipped like any part that is not an object
  for (const part of content ?? []) {
    if (!part || typeof part !== 'object') continue;
    const p = part as Record<string, unknown>;
    if (p['type'] === 'text' && typeof p['text'] === 'string') text += p['text'];
    if (p['type'] === 'thinking') {
      const inner = p['thinking'];
      if (typeof inner === 'string') reasoning += inner;
      else if (Array.isArray(inner)) reasoning += splitContent(inner).text;
    }
  }
  return { text, reasoning };
}

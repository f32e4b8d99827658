/** The canonical model: the only thing every dialect shares. Types plus small pure helpers. */
export * from './parts.ts';
export * from './chat.ts';
export * from './stream.ts';
export * from './errors.ts';
export * from './images.ts';
export * from './carrier.ts';
export * from './extras.ts';
export * from './image-size.ts';
export * from './image-chat.ts';
export * from './hints.ts';
export * from './http.ts';
export * from './usage.ts';
export * from './json.ts';
export * from './retry-after.ts';
export * from './base64.ts';
export * from './logprobs.ts';
export * from './custom-tools.ts';

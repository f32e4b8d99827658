/**
 * The canonical model, the interlingua every dialect decodes into and encodes from: parts,
 * requests and responses, stream events, errors, images, embeddings, citations, usage, and the pure helpers
 * of the model itself (carried signatures, extras, hints). No vendor's wire shape, no byte
 * machinery (src/kit), no flow's transforms (src/flows).
 */
export * from './dialects.ts';
export * from './parts.ts';
export * from './citation.ts';
export * from './chat.ts';
export * from './estimate.ts';
export * from './web-tools.ts';
export * from './stream.ts';
export * from './tool-call-queue.ts';
export * from './errors.ts';
export * from './images.ts';
export * from './embeddings.ts';
export * from './carrier.ts';
export * from './lent-signatures.ts';
export * from './extras.ts';
export * from './image-size.ts';
export * from './hints.ts';
export * from './usage.ts';
export * from './logprobs.ts';

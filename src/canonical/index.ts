/** The canonical model: the only thing every dialect shares. Types plus small pure helpers. */
export * from './parts.ts';
export * from './chat.ts';
export * from './stream.ts';
export * from './errors.ts';
export * from './images.ts';
export * from './carrier.ts';
export * from './extras.ts';

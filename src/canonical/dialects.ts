/**
 * Who speaks: the dialects the model is decoded from and encoded to, and the vendors that issue
 * opaque values. The names every other file of the model refers to, so that none of them needs
 * another to say whose a value is (and no two of them import each other).
 */

/** Dialect ids. An `openai` upstream serves both `openai-chat` and `openai-images`. */
export type DialectId = 'openai-chat' | 'openai-images' | 'openai-embeddings' | 'gemini' | 'anthropic' | 'openai-responses' | 'gemini-interactions';

/** Which vendor issued an opaque value (a reasoning signature, a redacted block). */
export type Vendor = 'openai' | 'anthropic' | 'gemini';

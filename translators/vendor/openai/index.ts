/**
 * Wire code OpenAI's dialects share (Chat Completions, Responses, Images): the error envelope and
 * the OpenAI-compatible hosts' error shapes, logprobs, the Bearer JSON headers. Imported only by
 * those dialects.
 */
export * from './errors.ts';
export * from './host-errors.ts';
export * from './logprobs.ts';
export * from './headers.ts';

/**
 * Wire code Google's dialects share (generateContent and Interactions): the google.rpc error shape
 * with its details (RetryInfo, ErrorInfo). Imported only by those dialects.
 */
export * from './errors.ts';

/**
 * Wire code Google's dialects share (generateContent and Interactions): the google.rpc error shape
 * with its details (RetryInfo, ErrorInfo), the hosted web tools. Imported only by those dialects.
 */
export * from './errors.ts';
export * from './web-tools.ts';

/**
 * Headers of a JSON request to an OpenAI-style API (Chat Completions, Responses): the upstream's
 * configured headers, the content type, and `Bearer` auth when there is a key.
 */
export function bearerJsonHeaders(apiKey: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...extra,
    'content-type': 'application/json',
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  };
}

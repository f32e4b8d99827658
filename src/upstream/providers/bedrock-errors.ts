/**
 * Bedrock's errors in Anthropic's envelope: AWS writes `{"message": …}` typed by
 * `x-amzn-ErrorType` (HTTP) or `:exception-type` (stream), which become Anthropic's
 * `{"type":"error","error":{type,message}}` with the type of the same meaning (AWS_ERROR_TYPES),
 * before the anthropic dialect decodes them.
 */

/**
 * AWS exception names (HTTP `x-amzn-ErrorType`, stream `:exception-type`, compared without case)
 * → the Anthropic error type that carries the same meaning.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ResponseStream.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 */
const AWS_ERROR_TYPES: Record<string, string> = {
  validationexception: 'invalid_request_error',
  accessdeniedexception: 'permission_error',
  unrecognizedclientexception: 'authentication_error',
  invalidsignatureexception: 'authentication_error',
  incompletesignature: 'authentication_error',
  incompletesignatureexception: 'authentication_error',
  missingauthenticationtoken: 'authentication_error',
  missingauthenticationtokenexception: 'authentication_error',
  expiredtokenexception: 'authentication_error',
  invalidclienttokenid: 'authentication_error',
  resourcenotfoundexception: 'not_found_error',
  throttlingexception: 'rate_limit_error',
  servicequotaexceededexception: 'rate_limit_error',
  modelnotreadyexception: 'overloaded_error',
  serviceunavailableexception: 'overloaded_error',
  modeltimeoutexception: 'timeout_error',
  modelerrorexception: 'api_error',
  modelstreamerrorexception: 'api_error',
  internalserverexception: 'api_error',
};

/** `ValidationException:http://internal.amazon.com/…` or `com.amazon…#ValidationException` → the name. */
function awsErrorName(raw: string | undefined): string | undefined {
  const name = raw?.split(':')[0]?.split('#').pop()?.trim();
  return name || undefined;
}

/** The Anthropic error type of an AWS exception name; undefined when unknown (the status decides). */
export function anthropicErrorType(awsName: string | undefined): string | undefined {
  return awsName ? AWS_ERROR_TYPES[awsName.toLowerCase()] : undefined;
}

export function anthropicEnvelope(type: string | undefined, message: string, requestId?: string): string {
  return JSON.stringify({ type: 'error', error: { ...(type ? { type } : {}), message }, ...(requestId ? { request_id: requestId } : {}) });
}

function header(headers: Record<string, string>, name: string): string | undefined {
  return headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

/**
 * A Bedrock error body in Anthropic's envelope: AWS's `{"message"}` (or `Message`) typed by
 * `x-amzn-ErrorType` (or `__type`/`code` in the body). A body that already is Anthropic's passes.
 */
export function bedrockErrorBody(status: number, body: string, headers: Record<string, string>): string {
  let parsed: Record<string, unknown> | undefined;
  try {
    const p: unknown = JSON.parse(body);
    if (p && typeof p === 'object' && !Array.isArray(p)) parsed = p as Record<string, unknown>;
  } catch {
    parsed = undefined;
  }
  if (parsed?.type === 'error' && parsed.error && typeof parsed.error === 'object') return body;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const name = awsErrorName(header(headers, 'x-amzn-errortype') ?? str(parsed?.__type) ?? str(parsed?.code));
  const message = str(parsed?.message) ?? str(parsed?.Message) ?? (parsed === undefined && body.trim() ? body.trim().slice(0, 500) : undefined) ?? `Bedrock returned HTTP ${status}${name ? ` (${name})` : ''}`;
  return anthropicEnvelope(anthropicErrorType(name), message, header(headers, 'x-amzn-requestid'));
}

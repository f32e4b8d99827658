/**
 * Per-token log probabilities, neutral: the token, its log probability, its UTF-8 bytes where the
 * wire gave them, and the alternatives considered at that step. OpenAI chat `logprobs`
 * (content/refusal), Gemini `logprobsResult` and OpenAI Responses `logprobs` all decode into it.
 */
export interface TokenAlternative {
  token: string;
  logprob: number;
  /** The token's UTF-8 bytes, when the wire carried them. */
  bytes?: number[];
}

export interface TokenLogprob extends TokenAlternative {
  /** The most likely tokens at this position (OpenAI `top_logprobs`, Gemini `topCandidates`). */
  top: TokenAlternative[];
}

export interface Logprobs {
  /** Tokens of the answer's text. */
  content: TokenLogprob[];
  /** Tokens of a refusal (OpenAI). */
  refusal?: TokenLogprob[];
}

/**
 * A prompt-caching breakpoint on a part or tool: everything up to and including it may be cached
 * (Anthropic `cache_control`; other vendors cache by themselves and report the drop).
 */
export interface CacheHint {
  /** How long the cached prefix should live (Anthropic: `5m`, the default, or `1h`). */
  ttl?: '5m' | '1h';
}

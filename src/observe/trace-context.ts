/**
 * W3C trace context (`traceparent`), random trace and span ids, and the GenAI conventions' name
 * of each upstream's provider: the small pure pieces traces.ts builds spans from.
 */

export interface TraceContext {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/** A W3C `traceparent` header, or undefined when absent or invalid (then a new trace starts). */
export function parseTraceparent(value: string | undefined): TraceContext | undefined {
  const m = value ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!m || m[1] === 'ff' || (m[1] === '00' && value!.trim().length !== 55)) return undefined;
  if (/^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return undefined;
  return { traceId: m[2]!, spanId: m[3]!, sampled: (parseInt(m[4]!, 16) & 1) === 1 };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** Random bytes drawn in blocks (one getRandomValues call per ~170 spans: it costs µs a call on Node). */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

/** A random id of `bytes` bytes in lowercase hex (trace ids 16, span ids 8; never all zero). */
export function hex(bytes: number): string {
  if (poolAt + bytes > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  let s = '';
  let zero = true;
  for (let i = 0; i < bytes; i++) {
    const x = pool[poolAt++]!;
    if (x) zero = false;
    s += HEX[x];
  }
  return zero ? hex(bytes) : s;
}

/** `gen_ai.provider.name` of an upstream: its host when it has one, else its dialect's maker. */
export function providerName(dialect: string, provider?: string): string {
  switch (provider) {
    case 'vertex':
      return 'gcp.vertex_ai';
    case 'bedrock':
      return 'aws.bedrock';
    case 'azure':
      return 'azure.ai.openai';
    case 'mistral':
      return 'mistral_ai';
    case 'xai':
      return 'x_ai';
    case undefined:
      return dialect === 'anthropic' ? 'anthropic' : dialect === 'gemini' || dialect === 'gemini-interactions' ? 'gcp.gemini' : 'openai';
    default:
      return provider; // deepseek, groq, and hosts the conventions do not name
  }
}

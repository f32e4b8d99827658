/** A flow's `Reply` as a Web `Response` (Hono, Workers); a streamed body is read through its pipe. */
import { PipeBody } from '../sse/byte-step.ts';
import type { Reply } from '../flows/reply.ts';

export function toResponse(reply: Reply): Response {
  const { body } = reply;
  return new Response((body instanceof PipeBody ? body.toStream() : body) as BodyInit | null, { status: reply.status, headers: reply.headers });
}

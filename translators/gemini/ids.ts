/**
 * Deterministic tool-call ids for Gemini function calls, which usually carry none.
 *
 * `turn` is `req.messages.length` of the request being answered: the assistant message the
 * response becomes sits at that index in the next request, so ids are unique per conversation and
 * `decodeResponse` and the stream decoder produce the same ids. `decodeRequest` uses the same
 * scheme (message index, position) for calls a Gemini caller sends without ids.
 */
export function syntheticCallId(turn: number, position: number, choice = 0): string {
  return choice === 0 ? `call_${turn}_${position}` : `call_${turn}_c${choice}_${position}`;
}

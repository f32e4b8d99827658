/**
 * The dialect contract. Every dialect folder exports one object implementing the caller side,
 * the upstream side, or both. Translators are pure: no I/O, no clock or randomness except
 * through `TranslateContext`, no mutation of inputs, no import of Hono or another dialect.
 */
import type {
  ChatRequest,
  ChatResponse,
  Compaction,
  Converted,
  DialectId,
  EmbeddingRequest,
  EmbeddingResponse,
  ImageRequest,
  ImageResponse,
  ProxyError,
  ReasoningEffort,
  SettingNames,
  SseEvent,
  StreamEvent,
  StreamFrame,
  StreamStep,
  Vendor,
  Warning,
  WebTool,
} from '../src/canonical/index.ts';
import type { UpstreamHttpRequest, UpstreamTarget } from './types-upstream.ts';

export type * from './types-upstream.ts';

/** Clock and ids for one request, injected so translators stay deterministic under test. */
export interface TranslateContext {
  /** Unix milliseconds. */
  now(): number;
  /** A fresh unique id, e.g. `newId('chatcmpl-')`. */
  newId(prefix: string): string;
}

/** What the caller sent, as the route saw it. */
export interface CallerInput {
  /** Parsed JSON body (or `FormData` for multipart image routes). */
  body: unknown;
  /** Lowercased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Route parameters: `model` (Gemini path), `method` (`generateContent`, …). */
  params: Record<string, string>;
  query: Record<string, string>;
}

/** An error as a caller dialect sends it. */
export interface EncodedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ModelInfo {
  id: string;
  /** Config upstream name serving it. */
  ownedBy: string;
  /** Unix seconds. */
  created: number;
  /** What its route says (config `models` entry): the context window and most output, in tokens. */
  contextWindow?: number;
  maxOutputTokens?: number;
  /** A reasoning effort and/or thinking budget the route forces on every request. */
  reasoning?: { effort?: 'none' | ReasoningEffort; budgetTokens?: number };
}

/**
 * A caller dialect's stream encoder. Same dialect both sides, the caller reads the upstream's own
 * frames, forwarded byte for byte, and the encoder is only asked for an error ending (`push` of an
 * `error` event, `finish()`): it is shown each forwarded frame first (`forwarded`) when that ending
 * depends on the stream so far (Responses: the same response id, the next sequence numbers).
 */
export interface CallerStreamEncoder extends StreamStep<StreamEvent, StreamFrame> {
  forwarded?(frame: SseEvent): void;
  /**
   * A stateful dialect whose kept answer holds more than its frames show (`ChatCaller.encodeKept`):
   * once the terminal frame is out, what the store keeps (for `DialectState.record`).
   */
  kept?(): unknown;
}

/**
 * The caller side of a chat dialect: what it accepts from apps, and what it sends back. The
 * optional pieces (`ChatCallerPieces`) are grouped below, each in the file its name gives.
 */
export interface ChatCaller extends ChatCallerPieces {
  readonly id: DialectId;
  /**
   * How this dialect's wire names the canonical settings (`topK` → `top_k`): an upstream encoder
   * reports what it could not carry by the canonical name, and the flow renames it with these so
   * the caller reads its own field (`inCallerTerms`).
   */
  readonly settingNames: SettingNames;
  /** Wire → canonical. Throws `ProxyError` (invalid-request) naming the parameter at fault. */
  decodeRequest(input: CallerInput, ctx: TranslateContext): Converted<ChatRequest>;
  /** Canonical → the dialect's JSON response body. */
  encodeResponse(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): unknown;
  /** Canonical events → the dialect's SSE frames; `finish()` always closes the stream properly. */
  createStreamEncoder(req: ChatRequest, ctx: TranslateContext): CallerStreamEncoder;
  /** Stream framing the caller asked for (Gemini without `alt=sse` wants a JSON array). */
  streamFraming?(input: CallerInput): 'sse' | 'json-array';
  encodeError(err: ProxyError): EncodedError;
}

/**
 * What a chat dialect's caller side may add, each piece in its own file of the dialect's folder
 * (docs/architecture.md, Adding a dialect). Without one, the proxy does without it, as each says.
 */
export interface ChatCallerPieces {
  // model-list.ts: without it, `GET …/models` answers a bare `{ data }` list.
  /** `GET …/models` in this dialect's shape. */
  encodeModelList?(models: ModelInfo[]): unknown;
  // count-tokens.ts: without it, the dialect's token counting route answers 404.
  /** Token counting route (Anthropic `count_tokens`, Gemini `countTokens`). */
  encodeCountTokensResponse?(inputTokens: number): unknown;
  // A stateful dialect (state.ts): its references served from the store toward upstreams keeping none.
  /** Server-side state the dialect refers to (Responses `previous_response_id`, `item_reference`). */
  readonly state?: DialectState;
  /**
   * The dialect's checks of a body's references to stored state (and that it has something to
   * answer), which the flow runs before it resolves them from its store: the store is read only
   * for well-formed references, so a malformed one (`previous_response_id: 5`) must be refused
   * first, never skipped. Throws the dialect's 400; `decodeRequest` runs the same checks.
   */
  checkReferences?(body: unknown): void;
  /**
   * A stateful dialect whose kept answer holds more than the caller is shown (Responses: another
   * vendor's reasoning signature when the caller did not ask for encrypted reasoning): the answer
   * as `encodeResponse` writes it, and what the store keeps of it (for `DialectState.record`), ids
   * shared. Without it the answer itself is kept.
   */
  encodeKept?(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): { answer: unknown; kept: unknown };
  // A dialect that asks for compaction (src/flows/compaction.ts makes it).
  /**
   * A compaction the proxy made (src/flows/compaction.ts), as this dialect answers one: in place
   * of a turn (`turn`, as JSON; `turnFrames`, as the whole stream), and as its compaction route
   * answers (`compacted`: Responses `POST /responses/compact`). Without it the dialect has no
   * compaction to ask for.
   */
  readonly compaction?: {
    /**
     * The dialect shows a compaction the proxy made before answering a turn
     * (`ChatRequest.compacted`) ahead of the turn's output, in `encodeResponse` and the stream.
     */
    beforeTurn?: boolean;
    turn?(c: Compaction, req: ChatRequest, ctx: TranslateContext): unknown;
    turnFrames?(c: Compaction, req: ChatRequest, ctx: TranslateContext): StreamFrame[];
    compacted?(c: Compaction, req: ChatRequest, ctx: TranslateContext): unknown;
  };
  // The fast path (src/flows/forward/).
  /**
   * How a request goes to an upstream of this same dialect without being decoded (src/flows/forward/),
   * as data. Without it every request is decoded.
   */
  readonly forward?: ForwardSpec;
}

/**
 * A dialect's forwarding without decoding: the flow scans the body's top level (never parsing the
 * conversation), and checks the rest with the dialect's own `decodeRequest`, given `standIn` in the
 * conversation's place; the upstream, of the same dialect, checks the conversation itself.
 */
export interface ForwardSpec {
  /**
   * Where the routed model and the stream flag are: the body's top-level `model` and `stream`
   * (`body`), or the route parameters (`path`: `model`, streaming when `method` is `streamMethod`).
   */
  readonly model: { in: 'body' } | { in: 'path'; streamMethod: string };
  /** The top-level field holding the conversation. */
  readonly conversation: string;
  /** One plain turn in the conversation's place, which `decodeRequest` accepts. */
  readonly standIn: unknown;
  /**
   * What the decoder must check inside the conversation all the same (Responses:
   * `item_reference`, whose id must be a string): a body holding any of these ASCII strings
   * anywhere is decoded, not forwarded.
   */
  readonly decodeMarks?: readonly string[];
  /**
   * Everything `decodeRequest` reads of the request besides its body that can refuse it: header
   * names (lowercase) and route parameter names.
   */
  readonly reads?: { readonly headers?: readonly string[]; readonly params?: readonly string[] };
}

/**
 * What the shared conformance suite (test/conformance/) does not hold a dialect to, each with its
 * reason, as Hono's router suites take skip lists: the dialect folder's `conformance-exceptions.ts`
 * exports one as `conformanceExceptions` (an empty one: no exceptions). Read by the suite only.
 */
export interface ConformanceExceptions {
  /**
   * Canonical request fields the dialect's wire has no place for: left out of its round trip, and
   * its encoder must report each as a lossy drop.
   */
  readonly cannotCarry?: ReadonlyArray<{ readonly field: keyof ChatRequest; readonly why: string }>;
}

/** One reference a request makes to state a server kept: a store key, the parameter and id named. */
export interface StateReference {
  key: string;
  param: string;
  id: string;
}

/**
 * Pure rules of a stateful dialect, for the flow to serve toward upstreams that keep no state
 * (src/flows/state.ts does the I/O). Keys are the dialect's own (`resp:…`, `item:…`).
 */
export interface DialectState {
  /** What the body refers to, and the first field only a stateful upstream serves (`background`…). */
  references(body: unknown): { refs: StateReference[]; statefulOnly?: string };
  /** The body with every reference replaced by what the store held (`found` by key). */
  expand(body: unknown, found: ReadonlyMap<string, string>): unknown;
  /** Whether the caller asked that this exchange be kept (Responses: `store`, default true). */
  keeps(body: unknown): boolean;
  /** The answer object of a stream's terminal frame, or undefined for any other frame. */
  finalOf(frame: StreamFrame): unknown;
  /**
   * For a dialect whose terminal frame does not carry the whole answer (Interactions: the
   * `interaction.completed` frame has no steps): a collector for one stream, shown every frame in
   * order, that returns the answer at the terminal frame (undefined before). Used instead of `finalOf`.
   */
  collect?(): (frame: StreamFrame) => unknown;
  /**
   * What to keep of one exchange: key → value. `request` is the expanded request, `answer` what
   * the caller's encoder said to keep (`encodeKept`, the stream encoder's `kept()`, else the answer
   * as the caller got it), `found` what its references resolved to (by key), `ctx` mints the ids
   * of what is kept without one.
   */
  record(request: unknown, answer: unknown, found: ReadonlyMap<string, string>, ctx: TranslateContext): Array<[key: string, value: string]>;
  /** What the dialect calls a kept answer, and the parameter naming it in a by-id route (`Response`, `response_id`). */
  readonly answer: { noun: string; idParam: string };
  /**
   * The error for a reference (`param`, `id`) the store does not hold (expired, deleted, answered
   * by another deployment), as the dialect's own server answers it.
   */
  notFound(param: string, id: string): ProxyError;
  /** The store key of an id a retrieve/delete route names. */
  keyOf(id: string): string;
  /** The other keys a stored answer owns (its output items), deleted with it. */
  ownedKeys(stored: string): string[];
  /** The retrieve, input-items and delete answers from a stored value. */
  retrieved(stored: string): unknown;
  inputItems(stored: string, query: Record<string, string>): unknown;
  deleted(id: string): unknown;
}

/**
 * The upstream side of a chat dialect: how canonical requests are sent to it. The same-dialect
 * passthrough and the optional pieces (`ChatUpstreamPieces`) are grouped below.
 */
export interface ChatUpstream extends ChatUpstreamPieces {
  readonly id: DialectId;
  readonly vendor: Vendor;
  /** The upstream takes only inline media (image URLs must be fetched and inlined first). */
  readonly inlineMediaOnly?: boolean;
  /** The upstream can return several choices in one call (else `n > 1` fans out). */
  readonly multipleChoices?: boolean;
  /**
   * The upstream takes freeform tools (`Tool.custom`) as they are. Otherwise the flow lowers them
   * before encoding and raises the calls back after decoding (src/flows/custom-tools.ts:
   * `lowerCustomTools`, `raiseCustomToolCalls`, `raiseCustomToolStream`).
   */
  readonly customTools?: boolean;
  /**
   * The hosted web tools (a search, a page fetch) this upstream runs itself for a target (its
   * model, its host's knobs): the one answer to "does this upstream search?" (docs/hosted-tools.md).
   * Its encoder writes those as its own tools; the others are run by the configured search backend
   * (src/flows/web-search.ts), or dropped and reported without one.
   */
  hostedWebTools(target: Pick<UpstreamTarget, 'model' | 'options'>): ReadonlySet<WebTool['kind']>;
  encodeRequest(
    req: ChatRequest,
    target: UpstreamTarget,
    ctx: TranslateContext,
  ): Converted<UpstreamHttpRequest>;
  decodeResponse(body: unknown, req: ChatRequest, ctx: TranslateContext): ChatResponse;
  createStreamDecoder(req: ChatRequest, ctx: TranslateContext): StreamStep<SseEvent, StreamEvent>;
  /** Upstream HTTP error → ProxyError (status kept, raw body kept, retry-after read). */
  decodeError(status: number, body: string, headers: Record<string, string>): ProxyError;
  // passthrough.ts: the same dialect on both sides.
  /**
   * Same dialect on both sides: the request to send when only model and credentials change.
   * `rawBody` is forwarded byte for byte when the model needs no rename. What the upstream may not
   * receive and is left out (an Anthropic beta outside its allow-list) goes into `warnings`.
   */
  encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget, warnings?: Warning[]): UpstreamHttpRequest;
  /**
   * `encodePassthrough` without the parsed body, for a body forwarded as bytes: the request (its
   * body left to the flow) and `model`, the value the body's top-level `model` must be given
   * (undefined: the bytes go as they are). Undefined when this target needs the parsed body (a
   * host that wants the body otherwise). Must not read `input.body`.
   */
  forwardRequest?(
    input: CallerInput,
    peeked: { model: string; stream: boolean },
    target: UpstreamTarget,
    warnings?: Warning[],
  ): { request: Omit<UpstreamHttpRequest, 'body'>; model?: string } | undefined;
}

/** What a chat dialect's upstream side may add, each piece in its own file of the dialect's folder. */
export interface ChatUpstreamPieces {
  // model-list.ts: without it, the upstream's own models are not listed.
  /** The upstream's own model list (merged into `GET …/models`). */
  encodeModelListRequest?(target: UpstreamTarget): UpstreamHttpRequest;
  decodeModelList?(body: unknown): string[];
  // count-tokens.ts: without it, a count is estimated (and said so).
  /** Token counting, where the upstream has an endpoint for it. */
  encodeCountTokens?(req: ChatRequest, target: UpstreamTarget, ctx: TranslateContext): UpstreamHttpRequest;
  decodeCountTokens?(body: unknown): number;
}

export type ChatDialect = ChatCaller & ChatUpstream;

/** The caller side of the images dialect. */
export interface ImageCaller {
  readonly id: DialectId;
  decodeImageRequest(
    input: CallerInput,
    op: ImageRequest['op'],
    ctx: TranslateContext,
  ): Converted<ImageRequest>;
  encodeImageResponse(res: ImageResponse, req: ImageRequest): unknown;
  encodeError(err: ProxyError): EncodedError;
}

/** An upstream that can make images. */
export interface ImageUpstream {
  readonly vendor: Vendor;
  /** One or more calls (a Gemini upstream fans `n` out); results are merged in order. */
  encodeImageRequest(
    req: ImageRequest,
    target: UpstreamTarget,
    ctx: TranslateContext,
  ): Converted<UpstreamHttpRequest[]>;
  decodeImageResponse(body: unknown, req: ImageRequest, ctx: TranslateContext): ImageResponse;
  decodeError(status: number, body: string, headers: Record<string, string>): ProxyError;
}

/** The caller side of an embeddings dialect (OpenAI `/embeddings`, Gemini `embedContent`). */
export interface EmbeddingCaller {
  readonly id: DialectId;
  /** Wire → canonical. Throws the dialect's 400 for what it refuses (empty input, too many items…). */
  decodeEmbeddingRequest(input: CallerInput, ctx: TranslateContext): Converted<EmbeddingRequest>;
  /** Canonical → the dialect's JSON answer (`input`: which method was called, where that matters). */
  encodeEmbeddingResponse(res: EmbeddingResponse, req: EmbeddingRequest, input: CallerInput): unknown;
  encodeError(err: ProxyError): EncodedError;
}

/**
 * An upstream wire form of embeddings. A request is split by the flow into calls of at most
 * `batchSize(model)` inputs of one task each; the vectors come back in input order.
 */
export interface EmbeddingUpstream {
  /** The most inputs one call to this model takes (Titan: 1). */
  batchSize(model: string): number;
  /**
   * One call's request. Throws ProxyError (the caller's 400) for what the model cannot take
   * (a size a fixed-size model cannot give, token arrays toward a text-only upstream).
   */
  encodeEmbeddingRequest(req: EmbeddingRequest, target: UpstreamTarget, ctx: TranslateContext): Converted<UpstreamHttpRequest>;
  /**
   * The answer to one call: one vector per input of `req`. Throws ProxyError (502) for another
   * shape. `headers` (lowercase): where a host counts tokens outside the body (Bedrock).
   */
  decodeEmbeddingResponse(body: unknown, req: EmbeddingRequest, ctx: TranslateContext, headers?: Record<string, string>): EmbeddingResponse;
  decodeError(status: number, body: string, headers: Record<string, string>): ProxyError;
}

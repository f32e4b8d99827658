/**
 * Caller side: a `POST /v1beta/interactions` (or `/v1/interactions`) body → canonical
 * `ChatRequest`. Fields without a canonical home ride in extras for a gemini-interactions upstream
 * (`safety_settings`, `previous_interaction_id`, `background`, `generation_config.speech_config`…;
 * `store`, `service_tier` and `labels` as hints); any other upstream reports each one dropped.
 *
 * State: the flow resolves `previous_interaction_id` from its store and refuses `background`
 * toward an upstream that keeps no state (translators/gemini-interactions/state.ts) before this
 * decoder runs; what still arrives here is bound for a gemini-interactions upstream, which serves
 * it itself. Agent interactions (`agent`, `agent_config`) name no model to route by and run only on
 * Google's servers: refused here with a 400 naming the parameter.
 */
import { ProxyError, type ChatRequest, type Converted, type Part, type Warning } from '../../src/canonical/index.ts';
import type { CallerInput } from '../types.ts';
import { decodeInput } from './decode-input.ts';
import { decodeGenerationConfig, decodeResponseFormat, decodeTools } from './decode-settings.ts';
import { invalid, isRecord, parseAt } from './decode-validate.ts';
import { CreateBodySchema, DECODED_FIELDS, HINT_FIELDS, type GeminiInteractionsExtras } from './wire.ts';

function refuseAgents(body: Record<string, unknown>): void {
  for (const param of ['agent', 'agent_config'] as const) {
    if (body[param] != null) {
      throw invalid(
        `Invalid value at '${param}': agent interactions run only on Google's servers and name no model to route by; this proxy serves model interactions ('model').`,
        param,
      );
    }
  }
}

/**
 * A reference to a stored interaction is a non-empty string, and there is something to answer:
 * `input` may be left out (or empty) only by a continuation of a stored interaction, as the SDK's
 * automatic continuation sends it (`previous_interaction_id` and `continuation_token`, no input).
 */
function checkInput(body: Record<string, unknown>): void {
  const prev = body['previous_interaction_id'];
  if (prev === '') throw invalid(`Invalid value at 'previous_interaction_id': expected the id of an interaction, got an empty string.`, 'previous_interaction_id');
  const given = body['input'];
  if (prev != null || (given !== undefined && given !== null && given !== '' && !(Array.isArray(given) && given.length === 0))) return;
  const what = given === undefined || given === null ? 'required field is missing' : `expected a non-empty value, got ${given === '' ? 'an empty string' : 'an empty list'}`;
  throw invalid(`Invalid value at 'input': ${what} (only a continuation, by 'previous_interaction_id', may leave it out).`, 'input');
}

export function decodeRequest(input: CallerInput): Converted<ChatRequest> {
  const body = input.body;
  if (!isRecord(body)) {
    throw new ProxyError('invalid-request', 'Invalid JSON payload received. The body must be a JSON object.', { param: 'body' });
  }
  refuseAgents(body);
  if (body['model'] === undefined || body['model'] === null || body['model'] === '') {
    throw invalid(`Invalid value at 'model': required field is missing (the model that answers the interaction).`, 'model');
  }
  const wire = parseAt(CreateBodySchema, body, '');
  checkInput(body);
  const warnings: Warning[] = [];
  const messages = decodeInput(wire.input, warnings);
  const system: Part[] = wire.system_instruction ? [{ type: 'text', text: wire.system_instruction }] : [];
  const stream = wire.stream === true;

  const req: ChatRequest = { model: wire.model, system, messages, stream };
  // Every Interactions answer carries usage: ask other upstreams for stream usage too.
  if (stream) req.streamUsage = true;
  const { tools, nativeTools } = decodeTools(wire.tools);
  if (tools) req.tools = tools;
  if (nativeTools) req.nativeTools = nativeTools;

  const gc = decodeGenerationConfig(wire.generation_config);
  if (gc.maxOutputTokens !== undefined) req.maxOutputTokens = gc.maxOutputTokens;
  if (gc.stop !== undefined) req.stop = gc.stop;
  if (gc.seed !== undefined) req.seed = gc.seed;
  if (gc.temperature !== undefined) req.temperature = gc.temperature;
  if (gc.topP !== undefined) req.topP = gc.topP;
  if (gc.toolChoice) req.toolChoice = gc.toolChoice;
  if (gc.reasoning) req.reasoning = gc.reasoning;

  const format = decodeResponseFormat(wire.response_format);
  if (format.responseFormat) req.responseFormat = format.responseFormat;
  if (format.modalities) req.modalities = format.modalities;

  const fields: Record<string, unknown> = { ...gc.extras };
  const hints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (DECODED_FIELDS.has(key) || value == null) continue;
    if (key === 'background' && value === false) continue;
    (HINT_FIELDS.has(key) ? hints : fields)[key] = value;
  }
  if (format.raw !== undefined) fields['response_format'] = format.raw;
  if (Object.keys(fields).length > 0 || Object.keys(hints).length > 0) {
    const extras: GeminiInteractionsExtras = { dialect: 'gemini-interactions', fields };
    if (Object.keys(hints).length > 0) extras.hints = hints;
    req.extras = extras;
  }
  return { value: req, warnings };
}

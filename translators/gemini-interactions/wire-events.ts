/**
 * Response-side wire shapes of the Gemini Interactions API: the `Interaction` a POST answers, its
 * `Usage`, and the SSE events of a stream (`InteractionSSEEvent`). Source of truth:
 * `@google/genai` 2.32.0 `dist/node/node.d.ts` (`Interaction`, `Usage`, `InteractionSseEventInteraction`,
 * `InteractionCreatedEvent`, `InteractionCompletedEvent`, `InteractionStatusUpdate`, `StepStart`,
 * `StepDelta`, `StepStop`, `ErrorEvent_2`, `StepDeltaData`) and /work/shared/spec/interactions-api.md.
 * Plain types are what encoders write; the loose valibot schemas are what decoders read.
 */
import * as v from 'valibot';
import type { AnyStep } from './wire.ts';

export type Wire = Record<string, unknown>;

const str = v.string();
const num = v.nullish(v.number());

/** `InteractionStatus_2`; unknown values pass as strings. */
export type InteractionStatus =
  | 'in_progress'
  | 'requires_action'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'incomplete'
  | 'budget_exceeded'
  | 'queued'
  | 'requires_continuation';

/** SDK `Usage` (the fields this proxy reads and writes; the by-modality lists pass through unread). */
export interface InteractionsUsage {
  total_input_tokens?: number;
  total_output_tokens?: number;
  total_thought_tokens?: number;
  total_cached_tokens?: number;
  total_tool_use_tokens?: number;
  total_tokens?: number;
}

export const UsageSchema = v.looseObject({
  total_input_tokens: num,
  total_output_tokens: num,
  total_thought_tokens: num,
  total_cached_tokens: num,
  total_tool_use_tokens: num,
  total_tokens: num,
});

/** SDK `ErrorT`: what an `error` event and an Interaction's `errors[]` hold. */
export interface InteractionsEventError {
  code?: string;
  message?: string;
}
export const EventErrorSchema = v.looseObject({ code: v.nullish(str), message: v.nullish(str) });

/** The `Interaction` resource as a POST answers it (this turn's output steps only). */
export interface Interaction {
  id: string;
  object: 'interaction';
  model?: string;
  status: InteractionStatus;
  steps?: AnyStep[];
  usage?: InteractionsUsage;
  /** ISO 8601, seconds (`YYYY-MM-DDThh:mm:ssZ`). */
  created?: string;
  updated?: string;
  previous_interaction_id?: string;
  errors?: InteractionsEventError[];
}

/**
 * An Interaction as decoders accept it: an object with a string `id` or `status`, and `steps` a
 * list when present. Anything else in a 200 body is not an Interaction.
 */
export const InteractionSchema = v.looseObject({
  id: v.nullish(str),
  object: v.nullish(str),
  model: v.nullish(str),
  status: v.nullish(str),
  steps: v.nullish(v.array(v.unknown())),
  usage: v.nullish(UsageSchema),
  created: v.nullish(str),
  errors: v.nullish(v.array(v.unknown())),
});
export type InteractionBody = v.InferOutput<typeof InteractionSchema>;

// ---- stream events -------------------------------------------------------------------------

/** `InteractionSseEventInteraction`: a partial Interaction on the lifecycle events (no steps from this proxy). */
export interface SseInteraction {
  id: string;
  status: InteractionStatus;
  object?: 'interaction';
  model?: string;
  usage?: InteractionsUsage;
  created?: string;
  updated?: string;
}

/** `StepDeltaData` kinds this proxy writes; others (image, audio, annotations, hosted tools) are read or skipped. */
export type StepDeltaData =
  | { type: 'text'; text: string }
  | { type: 'thought_summary'; content: { type: 'text'; text: string } }
  | { type: 'thought_signature'; signature: string }
  | { type: 'arguments_delta'; arguments: string }
  | { type: 'text_annotation_delta'; annotations: unknown[] }
  | { type: 'image'; data?: string; mime_type?: string; uri?: string };

/** Every event's data carries its own `event_type` (the same as the SSE `event:` line). */
export type InteractionsSseEvent =
  | { event_type: 'interaction.created'; interaction: SseInteraction }
  | { event_type: 'interaction.status_update'; interaction_id: string; status: InteractionStatus }
  | { event_type: 'step.start'; index: number; step: AnyStep }
  | { event_type: 'step.delta'; index: number; delta: StepDeltaData }
  | { event_type: 'step.stop'; index: number; usage?: InteractionsUsage }
  | { event_type: 'interaction.completed'; interaction: SseInteraction }
  | { event_type: 'error'; error: InteractionsEventError };

/** The last frame of every stream: `event: done`, `data: [DONE]` (the SDK's sentinel). */
export const DONE = '[DONE]';

export const EventHeadSchema = v.looseObject({ event_type: str });
export const StepStartSchema = v.looseObject({ index: v.number(), step: v.looseObject({ type: str }) });
export const StepDeltaSchema = v.looseObject({ index: v.number(), delta: v.looseObject({ type: str }) });
export const StepStopSchema = v.looseObject({ index: v.number(), usage: v.nullish(UsageSchema), step_usage: v.nullish(UsageSchema) });
export const LifecycleSchema = v.looseObject({
  interaction: v.looseObject({ id: v.nullish(str), status: v.nullish(str), model: v.nullish(str), usage: v.nullish(UsageSchema) }),
});
export const ErrorEventSchema = v.looseObject({ error: v.nullish(EventErrorSchema) });

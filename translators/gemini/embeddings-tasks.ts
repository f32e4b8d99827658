/** Gemini's `taskType` values ↔ the canonical embedding task (the same list on Vertex AI). */
import type { EmbeddingTask } from '../../src/canonical/index.ts';

export const TASK_OF: Readonly<Record<string, EmbeddingTask>> = {
  RETRIEVAL_QUERY: 'query',
  RETRIEVAL_DOCUMENT: 'document',
  SEMANTIC_SIMILARITY: 'similarity',
  CLASSIFICATION: 'classification',
  CLUSTERING: 'clustering',
  QUESTION_ANSWERING: 'question-answering',
  FACT_VERIFICATION: 'fact-verification',
  CODE_RETRIEVAL_QUERY: 'code-query',
};

export const TASK_TYPE: Readonly<Record<EmbeddingTask, string>> = Object.fromEntries(Object.entries(TASK_OF).map(([k, v]) => [v, k])) as Record<EmbeddingTask, string>;

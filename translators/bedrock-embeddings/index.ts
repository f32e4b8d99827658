/**
 * Embedding models on Amazon Bedrock, upstream side only: their InvokeModel bodies are the
 * models' own (Titan's, Cohere's), chosen by the model id on a `provider: "bedrock"` upstream
 * (src/flows/embeddings.ts). The bedrock provider makes the URL and signs the call.
 */
export { titanEmbeddings } from './titan.ts';
export { cohereEmbeddings } from './cohere.ts';

/**
 * The one file that imports the `openai` SDK. Any OpenAI-compatible endpoint serves (OpenAI, Azure, Ollama, vLLM,
 * the test double in test/support): OPENAI_BASE_URL + OPENAI_API_KEY.
 */
import OpenAI from 'openai';

export interface ModelEndpoint {
  baseUrl: string | null;
  apiKey: string | null;
  /** Per-request timeout. */
  timeoutMs: number;
}

/** Errors of the model endpoint, classified for the outcome policy. */
export class ModelCallError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'rate_limited' | 'server_error' | 'rejected' | 'malformed',
    message: string,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

export class OpenAiGateway {
  private readonly client: OpenAI;

  constructor(endpoint: ModelEndpoint) {
    this.client = new OpenAI({
      baseURL: endpoint.baseUrl ?? undefined,
      // A local OpenAI-compatible server may need no key; the SDK insists on a string.
      apiKey: endpoint.apiKey ?? 'not-needed',
      timeout: endpoint.timeoutMs,
      maxRetries: 0,
    });
  }

  /** Embeds texts in order; every vector has the same length. */
  async embed(model: string, texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    try {
      const response = await this.client.embeddings.create({ model, input: texts, encoding_format: 'float' });
      const vectors = [...response.data].sort((a, b) => a.index - b.index).map((row) => row.embedding);
      const width = vectors[0]?.length ?? 0;
      if (
        vectors.length !== texts.length ||
        width === 0 ||
        vectors.some((v) => v.length !== width || v.some((x) => !Number.isFinite(x)))
      ) {
        throw new ModelCallError('malformed', 'the embeddings response does not match the request');
      }
      return vectors;
    } catch (error) {
      throw classify(error);
    }
  }
}

function classify(error: unknown): ModelCallError {
  if (error instanceof ModelCallError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new ModelCallError('timeout', 'the model endpoint timed out');
  if (error instanceof OpenAI.APIConnectionError)
    return new ModelCallError('unreachable', 'the model endpoint is unreachable');
  if (error instanceof OpenAI.RateLimitError)
    return new ModelCallError('rate_limited', 'the model endpoint rate-limited the call');
  if (error instanceof OpenAI.InternalServerError)
    return new ModelCallError('server_error', 'the model endpoint failed');
  if (error instanceof OpenAI.APIError)
    return new ModelCallError('rejected', `the model endpoint refused the call (${String(error.status)})`);
  return new ModelCallError('malformed', error instanceof Error ? error.message : String(error));
}

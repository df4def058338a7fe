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

export type ModelCallErrorKind =
  'timeout' | 'unreachable' | 'rate_limited' | 'server_error' | 'rejected' | 'malformed' | 'canceled';

/** Errors of the model endpoint, classified for the outcome policy. */
export class ModelCallError extends Error {
  constructor(
    readonly kind: ModelCallErrorKind,
    message: string,
    /** What the endpoint asked us to wait (Retry-After / retry-after-ms), when it said so. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/** Token accounting of one model call (spec §2.5 `usage`). */
export interface ModelUsage {
  model: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface ChatJsonOptions {
  model: string;
  /** `response_format.json_schema.name`. */
  schemaName: string;
  /** A strict JSON schema (every object closed, every property required). */
  schema: Readonly<Record<string, unknown>>;
  /** The fixed system message. */
  system: string;
  /** The last (and only) user message: one JSON document. */
  user: string;
  /** Cancels the call (e.g. shutdown): the call fails with ModelCallError('canceled'). */
  signal?: AbortSignal;
}

export class OpenAiGateway {
  private readonly client: OpenAI;
  private readonly timeoutMs: number;

  constructor(endpoint: ModelEndpoint) {
    this.timeoutMs = endpoint.timeoutMs;
    this.client = new OpenAI({
      baseURL: endpoint.baseUrl ?? undefined,
      // A local OpenAI-compatible server may need no key; the SDK insists on a string.
      apiKey: endpoint.apiKey ?? 'not-needed',
      // Only a backstop: each call carries its own deadline signal (see `call`).
      timeout: endpoint.timeoutMs + 1000,
      maxRetries: 0,
    });
  }

  /**
   * Runs one SDK call under a deadline of timeoutMs. Our own signal, not only the SDK's timeout, decides
   * `timeout`: the SDK recognises its abort by the error's name, which is lost when the abort error comes from
   * another realm (e.g. under jest), and the call would then be misreported as `unreachable`.
   */
  private async call<T>(run: (signal: AbortSignal) => Promise<T>, cancel?: AbortSignal): Promise<T> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    try {
      if (cancel?.aborted) throw new ModelCallError('canceled', 'the model call was canceled');
      return await run(cancel ? AbortSignal.any([deadline, cancel]) : deadline);
    } catch (error) {
      if (cancel?.aborted && !(error instanceof ModelCallError))
        throw new ModelCallError('canceled', 'the model call was canceled');
      if (deadline.aborted && !(error instanceof ModelCallError))
        throw new ModelCallError('timeout', 'the model endpoint timed out');
      throw classify(error);
    }
  }

  /** Embeds texts in order; every vector has the same length. */
  async embed(model: string, texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    return this.call(async (signal) => {
      const response = await this.client.embeddings.create(
        { model, input: texts, encoding_format: 'float' },
        { signal },
      );
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
    });
  }

  /**
   * One `POST /chat/completions` with a strict `json_schema` response format: a system message, then the user
   * message. Returns the parsed JSON content (NOT yet checked against the schema: that is the caller's
   * validator) and the usage. Refusals, truncation, empty or non-JSON content → ModelCallError('malformed').
   */
  async chatJson(options: ChatJsonOptions): Promise<{ content: unknown; usage: ModelUsage }> {
    return this.call(async (signal) => {
      const response = await this.client.chat.completions.create(
        {
          model: options.model,
          messages: [
            { role: 'system', content: options.system },
            { role: 'user', content: options.user },
          ],
          response_format: {
            type: 'json_schema',
            json_schema: { name: options.schemaName, strict: true, schema: { ...options.schema } },
          },
        },
        { signal },
      );
      const choice = response.choices?.[0];
      if (choice === undefined) throw new ModelCallError('malformed', 'the model returned no choice');
      const message = choice.message;
      if (typeof message?.refusal === 'string' && message.refusal.length > 0)
        throw new ModelCallError('malformed', 'the model refused to answer');
      if (choice.finish_reason === 'length' || choice.finish_reason === 'content_filter')
        throw new ModelCallError('malformed', `the model answer is incomplete (${choice.finish_reason})`);
      const text = message?.content;
      if (typeof text !== 'string' || text.trim() === '')
        throw new ModelCallError('malformed', 'the model returned no content');
      let content: unknown;
      try {
        content = JSON.parse(text);
      } catch {
        throw new ModelCallError('malformed', 'the model content is not JSON');
      }
      const usage = response.usage;
      const input = count(usage?.prompt_tokens);
      const output = count(usage?.completion_tokens);
      return {
        content,
        usage: {
          model: typeof response.model === 'string' && response.model !== '' ? response.model : options.model,
          input_tokens: input,
          output_tokens: output,
          total_tokens: usage?.total_tokens === undefined ? input + output : count(usage.total_tokens),
        },
      };
    }, options.signal);
  }
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.trunc(value) : 0;
}

export function classify(error: unknown): ModelCallError {
  if (error instanceof ModelCallError) return error;
  // Order matters: the connection errors are APIErrors without a status.
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new ModelCallError('timeout', 'the model endpoint timed out');
  if (error instanceof OpenAI.APIConnectionError)
    return new ModelCallError('unreachable', 'the model endpoint is unreachable');
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    if (status === 429)
      return new ModelCallError(
        'rate_limited',
        'the model endpoint rate-limited the call',
        retryAfterMs(error),
      );
    if (status !== undefined && status >= 500)
      return new ModelCallError(
        'server_error',
        `the model endpoint failed (${String(status)})`,
        retryAfterMs(error),
      );
    return new ModelCallError('rejected', `the model endpoint refused the call (${String(status)})`);
  }
  return new ModelCallError('malformed', error instanceof Error ? error.message : String(error));
}

/** `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date), when present and sane. */
function retryAfterMs(error: InstanceType<typeof OpenAI.APIError>): number | null {
  const headers = error.headers;
  if (headers === undefined) return null;
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

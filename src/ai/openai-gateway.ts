/**
 * The one file that imports the `openai` SDK. Any OpenAI-compatible endpoint serves (OpenAI, Azure, Ollama, vLLM,
 * the test double in test/support): OPENAI_BASE_URL + OPENAI_API_KEY.
 */
import OpenAI from 'openai';
import { modelRole, recordModelCall } from '../observability/model-calls';

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
    /** The endpoint's HTTP status, when it answered with an error status (outcome policy, logs and metrics). */
    readonly status: number | null = null,
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

/** What one model call is made for: its cancellation and the request it serves (for the logs). */
export interface ModelCallScope {
  signal?: AbortSignal;
  requestId?: string;
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
  /** The HTTP request the call serves (`X-Request-Id`): on its log line when it fails. */
  requestId?: string;
  /** Functions the model may call instead of answering (OpenAI `tools`); none when absent or empty. */
  tools?: readonly ChatTool[];
}

/** A function offered to the model: `parameters` is a closed, bounded JSON schema. */
export interface ChatTool {
  name: string;
  description: string;
  parameters: Readonly<Record<string, unknown>>;
}

/** A function call the model asked for; `arguments` is the model's raw JSON text (untrusted). */
export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Either JSON content (no tool calls) or tool calls (content null). */
export interface ChatJsonResult {
  content: unknown;
  toolCalls: ChatToolCall[];
  usage: ModelUsage;
}

/** Most tool calls accepted from one model answer; more is a malformed answer. */
export const MAX_TOOL_CALLS_PER_ANSWER = 8;

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
  private async call<T>(
    what: { model: string; schemaName: string | null; requestId?: string },
    run: (signal: AbortSignal) => Promise<T>,
    cancel?: AbortSignal,
  ): Promise<T> {
    const started = performance.now();
    const record = (failure: ModelCallError | null): void =>
      recordModelCall({
        requestId: what.requestId ?? null,
        role: modelRole(what.schemaName),
        model: what.model,
        failure: failure?.kind ?? null,
        providerStatus: failure?.status ?? null,
        latencyMs: performance.now() - started,
      });
    try {
      const result = await this.attempt(run, cancel);
      record(null);
      return result;
    } catch (error) {
      record(classify(error)); // attempt() throws ModelCallError only; classify passes one through

      throw error;
    }
  }

  private async attempt<T>(run: (signal: AbortSignal) => Promise<T>, cancel?: AbortSignal): Promise<T> {
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
    return this.call({ model, schemaName: null }, async (signal) => {
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
   * With `tools`, the model may answer with function calls instead (content null); calls of functions that were
   * not offered, or more than MAX_TOOL_CALLS_PER_ANSWER, are malformed.
   */
  async chatJson(options: ChatJsonOptions): Promise<ChatJsonResult> {
    const tools = options.tools ?? [];
    return this.call(
      { model: options.model, schemaName: options.schemaName, requestId: options.requestId },
      async (signal) => {
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
            ...(tools.length > 0
              ? {
                  tools: tools.map((tool) => ({
                    type: 'function' as const,
                    function: {
                      name: tool.name,
                      description: tool.description,
                      parameters: { ...tool.parameters },
                      strict: true,
                    },
                  })),
                  parallel_tool_calls: true,
                }
              : {}),
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
        const usage = usageOf(response, options.model);
        const toolCalls = toolCallsOf(message?.tool_calls, tools);
        if (toolCalls.length > 0) return { content: null, toolCalls, usage };
        const text = message?.content;
        if (typeof text !== 'string' || text.trim() === '')
          throw new ModelCallError('malformed', 'the model returned no content');
        let content: unknown;
        try {
          content = JSON.parse(text);
        } catch {
          throw new ModelCallError('malformed', 'the model content is not JSON');
        }
        return { content, toolCalls: [], usage };
      },
      options.signal,
    );
  }
}

function usageOf(
  response: {
    model?: unknown;
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown } | null;
  },
  requested: string,
): ModelUsage {
  const usage = response.usage ?? undefined;
  const input = count(usage?.prompt_tokens);
  const output = count(usage?.completion_tokens);
  return {
    model: typeof response.model === 'string' && response.model !== '' ? response.model : requested,
    input_tokens: input,
    output_tokens: output,
    total_tokens: usage?.total_tokens === undefined ? input + output : count(usage.total_tokens),
  };
}

/** The function calls of an answer, checked against what was offered. */
function toolCallsOf(raw: unknown, offered: readonly ChatTool[]): ChatToolCall[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ModelCallError('malformed', 'tool_calls is not a list');
  if (raw.length > MAX_TOOL_CALLS_PER_ANSWER)
    throw new ModelCallError('malformed', `more than ${MAX_TOOL_CALLS_PER_ANSWER} tool calls in one answer`);
  const names = new Set(offered.map((tool) => tool.name));
  return raw.map((call: unknown) => {
    const c = call as { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const name = c?.function?.name;
    const args = c?.function?.arguments;
    if (typeof c?.id !== 'string' || typeof name !== 'string' || typeof args !== 'string')
      throw new ModelCallError('malformed', 'a tool call lacks its id, name or arguments');
    if (!names.has(name))
      throw new ModelCallError('malformed', `a tool call names a tool not offered: ${name}`);
    return { id: c.id, name, arguments: args };
  });
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
        status,
      );
    if (status !== undefined && status >= 500)
      return new ModelCallError(
        'server_error',
        `the model endpoint failed (${String(status)})`,
        retryAfterMs(error),
        status,
      );
    return new ModelCallError(
      'rejected',
      `the model endpoint refused the call (${String(status)})`,
      null,
      status ?? null,
    );
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

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import type { DraftInput, DraftOutput, ReviewInput, ReviewOutput } from '../../src/ai/reply-model-contract';
import { assistantMessage, toolCallsAnswer, type OfferedTool, type ScriptedToolCall } from './tool-calls';

export { offeredTools, type OfferedTool, type ScriptedToolCall } from './tool-calls';

/**
 * A local OpenAI-compatible server for tests (driven through the real `openai` SDK). Embeddings: a deterministic
 * bag-of-concepts vector (words mapped through a small synonym table, hashed into DIMS dimensions), so
 * "doctor" and "physician" are close although they share no letters. Counts calls; can be told to fail.
 *
 * Chat completions (`POST /v1/chat/completions`) dispatch on `response_format.json_schema.name`:
 * `cairn_reply_draft` → role `draft`, `cairn_semantic_review` → role `review` (anything else: HTTP 400).
 * Each call takes, in order: the next queued step of its role (`script.draft(...)` / `script.review(...)`),
 * else the role's handler (`script.respond(role, fn)`), else the default: the draft answers with the first
 * evidence excerpt citing it (one claim; abstains without evidence), the review marks every claim supported,
 * sufficient and answered as asked. Build steps with `reply.*`. Every chat request is recorded in `requests`.
 * A draft call may also be answered with OpenAI function calls (`reply.toolCalls([...])`: content null,
 * finish_reason `tool_calls`); the functions a request offered are in `body.tools` (see `offeredTools`).
 */
export const DIMS = 64;
const SYNONYMS: Record<string, string> = {
  doctor: 'physician',
  physician: 'physician',
  dentist: 'physician',
  medic: 'physician',
};

export type ChatRole = 'draft' | 'review';
const ROLES: Partial<Record<string, ChatRole>> = {
  cairn_reply_draft: 'draft',
  cairn_semantic_review: 'review',
};

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema?: unknown } };
  /** The functions offered to the model (absent when none). */
  tools?: OfferedTool[];
  [key: string]: unknown;
}

export interface ChatRequest {
  role: ChatRole | 'unknown';
  body: ChatRequestBody;
  /** The last user message parsed as JSON (undefined when it is not JSON). */
  input: unknown;
}

export interface AnswerOptions {
  /** Wait this long before answering. */
  delayMs?: number;
  /** false: the response carries no `usage`. */
  usage?: boolean;
  /** The response's `model` (default: the requested model). */
  model?: string;
}

/** What the server does with one chat call. */
export type ChatAnswer =
  | ({
      kind: 'content';
      content: string | null;
      refusal?: string | null;
      finishReason?: string;
    } & AnswerOptions)
  /** 200 with `tool_calls` (content null, finish_reason `tool_calls` unless told otherwise). */
  | ({ kind: 'tool_calls'; calls: ScriptedToolCall[]; finishReason?: string } & AnswerOptions)
  | { kind: 'http'; status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  /** Never answers (until the client gives up or the server closes). */
  | { kind: 'hang' };

export type ChatHandler = (request: ChatRequest) => ChatAnswer;
/** A scripted answer, fixed or computed from the request. */
export type ChatStep = ChatAnswer | ChatHandler;

export interface ChatScript {
  /** Queue answers for the next draft calls, consumed in order. */
  draft(...steps: ChatStep[]): void;
  /** Queue answers for the next review calls, consumed in order. */
  review(...steps: ChatStep[]): void;
  /** Handle every call of the role (after its queue drains) until replaced; null restores the default. */
  respond(role: ChatRole, handler: ChatHandler | null): void;
  /** Queued steps of a role not yet consumed. */
  pending(role: ChatRole): number;
  /** Clears queues and handlers. */
  reset(): void;
}

export interface ModelServer {
  url: string;
  calls: { embeddings: number; chat: number };
  /** Every chat request, in arrival order. */
  requests: ChatRequest[];
  script: ChatScript;
  /** The next `count` embedding calls answer HTTP `status`. */
  failEmbeddings(count: number, status?: number): void;
  /** Closes the server, destroying open (also hanging) connections. */
  close(): Promise<void>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
const resolveStep = (step: ChatStep, request: ChatRequest): ChatAnswer =>
  typeof step === 'function' ? step(request) : step;
const draftInput = (request: ChatRequest): Partial<DraftInput> =>
  (request.input ?? {}) as Partial<DraftInput>;
const reviewInput = (request: ChatRequest): Partial<ReviewInput> =>
  (request.input ?? {}) as Partial<ReviewInput>;

const abstainDraft = (gaps = ['the evidence does not answer the question']): DraftOutput => ({
  answer: '',
  claims: [],
  answer_mode: 'none',
  answer_intent: 'answer_business_question',
  inferences: [],
  uncertainties: [],
  gaps,
  abstain: true,
});

/** The default draft: the first evidence excerpt, citing it, as one claim; abstains without evidence. */
export function defaultDraft(input: Partial<DraftInput>): DraftOutput {
  const first = input.evidence?.[0];
  if (first === undefined) return abstainDraft();
  const text = first.excerpt.slice(0, 1000);
  const claims = [
    { text, reference_ids: [first.reference_id], quotes: [{ reference_id: first.reference_id, text }] },
  ];
  const answer = first.excerpt.slice(0, 4000);
  return { ...abstainDraft([]), answer, claims, answer_mode: 'facts', abstain: false };
}

/** The default review: every claim supported by its own references, sufficient, answered as asked. */
export function defaultReview(input: Partial<ReviewInput>): ReviewOutput {
  const claims = (input.claims ?? []).map((c) => ({
    text: c.text,
    supported: true,
    reference_ids: c.reference_ids,
  }));
  return {
    sufficient: true,
    answers_as_asked: true,
    claims,
    conflicts: [],
    reason: 'every claim is stated by the cited evidence',
  };
}

/** Builders of scripted answers. */
export const reply = {
  /** 200 with `value` serialized as the message content. */
  json: (value: unknown, options: AnswerOptions = {}): ChatAnswer => ({
    kind: 'content',
    content: JSON.stringify(value),
    ...options,
  }),
  /** 200 with raw content (null for none), optionally a refusal or a finish_reason such as `length`. */
  raw: (content: string | null, extra: { refusal?: string; finishReason?: string } = {}): ChatAnswer => ({
    kind: 'content',
    content,
    ...extra,
  }),
  /** The default draft with fields replaced. */
  draft:
    (patch: Partial<DraftOutput> = {}): ChatHandler =>
    (request) =>
      reply.json({ ...defaultDraft(draftInput(request)), ...patch }),
  abstain: (gaps?: string[]): ChatAnswer => reply.json(abstainDraft(gaps)),
  /** The default draft whose claim also cites a reference id that was not in the evidence. */
  citeUnknown:
    (referenceId = 'unknown-reference'): ChatStep =>
    (request) => {
      const draft = defaultDraft(draftInput(request));
      const claims = draft.claims.map((c) => ({ ...c, reference_ids: [...c.reference_ids, referenceId] }));
      return reply.json({
        ...draft,
        claims: claims.length > 0 ? claims : [{ text: 'x', reference_ids: [referenceId], quotes: [] }],
      });
    },
  /** The default review with fields replaced. */
  review:
    (patch: Partial<ReviewOutput> = {}): ChatHandler =>
    (request) =>
      reply.json({ ...defaultReview(reviewInput(request)), ...patch }),
  /** Claims at `indexes` (default: all) unsupported; sufficient false. */
  unsupported:
    (indexes?: number[]): ChatStep =>
    (request) => {
      const review = defaultReview(reviewInput(request));
      const claims = review.claims.map((c, i) => ({ ...c, supported: indexes?.includes(i) === false }));
      return reply.json({
        ...review,
        sufficient: false,
        claims,
        reason: 'claims are not stated by the evidence',
      });
    },
  insufficient: (reason = 'the evidence is merely related'): ChatStep =>
    reply.review({ sufficient: false, reason }),
  notAsAsked: (reason = 'the answer does not address the question asked'): ChatStep =>
    reply.review({ answers_as_asked: false, reason }),
  /** An HTTP error; 429 carries `retry-after` (seconds, default '1'). */
  status: (status: number, retryAfter?: string): ChatAnswer => ({
    kind: 'http',
    status,
    headers: status === 429 || retryAfter !== undefined ? { 'retry-after': retryAfter ?? '1' } : undefined,
    body: {
      error: { message: `scripted ${status}`, type: status === 429 ? 'rate_limit_error' : 'server_error' },
    },
  }),
  hang: (): ChatAnswer => ({ kind: 'hang' }),
  /** 200 asking for function calls instead of content (OpenAI `tool_calls`). */
  toolCalls: toolCallsAnswer,
  /** `step` answered after `ms`. */
  slow:
    (ms: number, step: ChatStep): ChatStep =>
    (request) => {
      const answer = resolveStep(step, request);
      return answer.kind === 'hang' ? answer : { ...answer, delayMs: ms };
    },
  /** `step` with options (delay, no usage, another response model). */
  with:
    (step: ChatStep, options: AnswerOptions): ChatStep =>
    (request) => {
      const answer = resolveStep(step, request);
      return answer.kind === 'content' || answer.kind === 'tool_calls' ? { ...answer, ...options } : answer;
    },
};

export function conceptVector(text: string): number[] {
  const vector = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = SYNONYMS[word] ?? word.replace(/s$/, '');
    vector[createHash('sha256').update(concept).digest().readUInt32BE(0) % DIMS] += 1;
  }
  return vector;
}

export async function startModelServer(): Promise<ModelServer> {
  const calls = { embeddings: 0, chat: 0 };
  const requests: ChatRequest[] = [];
  const queues: Record<ChatRole, ChatStep[]> = { draft: [], review: [] };
  const handlers: Record<ChatRole, ChatHandler | null> = { draft: null, review: null };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let failures: { count: number; status: number } = { count: 0, status: 500 };

  const later = (ms: number, action: () => void): void => {
    if (ms <= 0) return action();
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };

  const answerChat = (
    raw: string,
    send: (status: number, payload: unknown, headers?: Record<string, string>) => void,
  ) => {
    calls.chat += 1;
    const body = parseJson(raw) as ChatRequestBody | undefined;
    if (body === undefined) return send(400, { error: { message: 'the request body is not JSON' } });
    const users = (body.messages ?? []).filter((m) => m.role === 'user');
    const input = parseJson(users[users.length - 1]?.content ?? '');
    const role = ROLES[body.response_format?.json_schema?.name ?? ''] ?? 'unknown';
    const request: ChatRequest = { role, body, input };
    requests.push(request);
    if (role === 'unknown') return send(400, { error: { message: 'unknown response_format schema name' } });
    const fallback = handlers[role] ?? (role === 'draft' ? reply.draft() : reply.review());
    const answer = resolveStep(queues[role].shift() ?? fallback, request);
    if (answer.kind === 'hang') return;
    if (answer.kind === 'http')
      return later(answer.delayMs ?? 0, () => send(answer.status, answer.body ?? {}, answer.headers));
    const { message, finishReason, text } = assistantMessage(answer, calls.chat);
    const [prompt, completion] = [Math.ceil(raw.length / 4), Math.ceil(text.length / 4)];
    const tokens = {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    };
    later(answer.delayMs ?? 0, () =>
      send(200, {
        id: `chatcmpl-test-${calls.chat}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: answer.model ?? body.model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        ...(answer.usage === false ? {} : { usage: tokens }),
      }),
    );
  };

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}): void => {
        // The client may have given up (timeout) before a delayed answer.
        if (response.destroyed || response.writableEnded) return;
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(payload));
      };
      if (request.method === 'POST' && request.url === '/v1/chat/completions') return answerChat(body, send);
      if (request.method === 'POST' && request.url === '/v1/embeddings') {
        calls.embeddings += 1;
        if (failures.count > 0) {
          failures = { ...failures, count: failures.count - 1 };
          send(failures.status, { error: { message: 'scripted failure', type: 'server_error' } });
          return;
        }
        const parsed = JSON.parse(body) as { model: string; input: string | string[] };
        const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
        send(200, {
          object: 'list',
          model: parsed.model,
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) })),
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        });
        return;
      }
      send(404, { error: { message: `no route ${request.method} ${request.url}` } });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    calls,
    requests,
    script: {
      draft: (...steps) => void queues.draft.push(...steps),
      review: (...steps) => void queues.review.push(...steps),
      respond: (role, handler) => void (handlers[role] = handler),
      pending: (role) => queues[role].length,
      reset() {
        queues.draft = [];
        queues.review = [];
        handlers.draft = null;
        handlers.review = null;
      },
    },
    failEmbeddings(count, status = 500) {
      failures = { count, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/**
 * The demo model: an OpenAI-compatible server (node:http, 127.0.0.1, an ephemeral port) that is not a language
 * model. It answers every draft by quoting its evidence verbatim and approves every review, at once. `npm start`
 * runs it in the server process when CAIRN_DEMO_MODEL=on or `--demo-model` (src/ai/demo-model.ts), so the README
 * tour gets a reply on a machine with no model; the benchmarks use it so a reply's latency is Cairn's own pipeline.
 * The contract is the test double's (test/support/model-server.ts; ARCHITECTURE.md "Model contract"):
 * `POST /v1/chat/completions` dispatches on `response_format.json_schema.name`:
 *
 * - `cairn_reply_draft`: the evidence sentence that shares the most words with the question (the top evidence's
 *   first sentence when none does) as the answer, one claim quoting it with its reference_id (abstains without
 *   evidence);
 * - `cairn_semantic_review`: every claim supported, sufficient, answered as asked;
 *
 * and `POST /v1/embeddings` answers a small deterministic vector per input (Cairn calls it only when
 * CAIRN_EMBEDDING_MODEL is set). Anything else is HTTP 400/404.
 *
 * It counts calls and the time it spends on each (from the request's arrival to the end of the response), so a
 * benchmark can tell the model server's share of a reply's latency.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { DraftInput, DraftOutput, ReviewInput, ReviewOutput } from './reply-model-contract';
import { DRAFT_SCHEMA_NAME, OUTPUT_BOUNDS, REVIEW_SCHEMA_NAME } from './reply-model-contract';

export interface InstantModelStats {
  chat: number;
  embeddings: number;
  /** Evidence items the draft calls carried, in total. */
  draftEvidence: number;
  /** Calls the server refused (unknown route, schema name or body). */
  rejected: number;
  /** Milliseconds spent handling calls (arrival of the request to the end of the response). */
  busyMs: number;
}

export interface InstantModelServer {
  /** The OPENAI_BASE_URL (ends in `/v1`). */
  url: string;
  readonly stats: InstantModelStats;
  /** Zeroes the counters. */
  resetStats(): void;
  close(): Promise<void>;
}

interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  response_format?: { json_schema?: { name?: string } };
}

const EMBEDDING_DIMS = 64;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Words that say nothing about what a sentence answers. */
const STOP_WORDS = new Set([
  'the',
  'and',
  'are',
  'you',
  'your',
  'what',
  'when',
  'how',
  'for',
  'our',
  'can',
  'with',
]);

function words(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/\p{L}[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word)),
  );
}

/** The evidence sentence sharing the most words with the question (ties: the better-ranked evidence first). */
function bestSentence(
  question: string,
  evidence: NonNullable<DraftInput['evidence']>,
): { reference_id: string; text: string } {
  const asked = words(question);
  let best = { reference_id: evidence[0].reference_id, text: firstSentence(evidence[0].excerpt), score: 0 };
  for (const item of evidence) {
    for (const sentence of sentences(item.excerpt)) {
      const score = [...words(sentence)].filter((word) => asked.has(word)).length;
      if (score > best.score) best = { reference_id: item.reference_id, text: sentence, score };
    }
  }
  return { reference_id: best.reference_id, text: best.text.slice(0, OUTPUT_BOUNDS.claimChars) };
}

/** Sentences and lines (a heading is a line of its own), trimmed, never empty. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function firstSentence(text: string): string {
  return sentences(text)[0] ?? text.trim();
}

function draft(input: Partial<DraftInput>): DraftOutput {
  const base = {
    answer_intent: 'answer_business_question' as const,
    inferences: [],
    uncertainties: [],
  };
  if (input.evidence === undefined || input.evidence.length === 0) {
    return {
      ...base,
      answer: '',
      claims: [],
      answer_mode: 'none',
      gaps: ['the evidence does not answer the question'],
      abstain: true,
    };
  }
  const quote = bestSentence(input.question ?? '', input.evidence);
  return {
    ...base,
    answer: quote.text,
    claims: [{ text: quote.text, reference_ids: [quote.reference_id], quotes: [quote] }],
    answer_mode: 'facts',
    gaps: [],
    abstain: false,
  };
}

function review(input: Partial<ReviewInput>): ReviewOutput {
  return {
    sufficient: true,
    answers_as_asked: true,
    claims: (input.claims ?? []).map((c) => ({
      text: c.text,
      supported: true,
      reference_ids: c.reference_ids,
    })),
    conflicts: [],
    reason: 'every claim is stated by the cited evidence',
  };
}

function vector(text: string): number[] {
  const out = new Array<number>(EMBEDDING_DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? [])
    out[createHash('sha1').update(word).digest().readUInt32BE(0) % EMBEDDING_DIMS] += 1;
  return out;
}

export async function startInstantModelServer(
  options: { unref?: boolean } = {},
): Promise<InstantModelServer> {
  const stats: InstantModelStats = { chat: 0, embeddings: 0, draftEvidence: 0, rejected: 0, busyMs: 0 };
  const sockets = new Set<Socket>();

  const chat = (raw: string): { status: number; payload: unknown } => {
    const body = parseJson(raw) as ChatBody | undefined;
    const name = body?.response_format?.json_schema?.name;
    if (body === undefined || (name !== DRAFT_SCHEMA_NAME && name !== REVIEW_SCHEMA_NAME))
      return { status: 400, payload: { error: { message: 'not a Cairn draft or review call' } } };
    stats.chat += 1;
    const users = (body.messages ?? []).filter((m) => m.role === 'user');
    const input = (parseJson(users[users.length - 1]?.content ?? '') ?? {}) as Partial<DraftInput>;
    if (name === DRAFT_SCHEMA_NAME) stats.draftEvidence += input.evidence?.length ?? 0;
    const content = JSON.stringify(
      name === DRAFT_SCHEMA_NAME ? draft(input) : review(input as Partial<ReviewInput>),
    );
    const prompt = Math.ceil(raw.length / 4);
    const completion = Math.ceil(content.length / 4);
    return {
      status: 200,
      payload: {
        id: `chatcmpl-bench-${stats.chat}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? 'bench',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
      },
    };
  };

  const embeddings = (raw: string): { status: number; payload: unknown } => {
    const body = parseJson(raw) as { model?: string; input?: string | string[] } | undefined;
    if (body?.input === undefined) return { status: 400, payload: { error: { message: 'no input' } } };
    stats.embeddings += 1;
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    return {
      status: 200,
      payload: {
        object: 'list',
        model: body.model ?? 'bench',
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: vector(text) })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      },
    };
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    response.once('finish', () => (stats.busyMs += performance.now() - started));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const route = `${request.method} ${request.url}`;
      const answer =
        route === 'POST /v1/chat/completions'
          ? chat(raw)
          : route === 'POST /v1/embeddings'
            ? embeddings(raw)
            : { status: 404, payload: { error: { message: `no route ${route}` } } };
      if (answer.status !== 200) stats.rejected += 1;
      const text = JSON.stringify(answer.payload);
      response.writeHead(answer.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      response.end(text);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    // Inside a server process (the demo model), its connections must not keep the process from exiting.
    if (options.unref) socket.unref();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  if (options.unref) server.unref();
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    stats,
    resetStats() {
      Object.assign(stats, { chat: 0, embeddings: 0, draftEvidence: 0, rejected: 0, busyMs: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ValidationFailedError, type ErrorDetail } from '../common/errors';
import { MAX_APPEND_BYTES_CEILING } from '../infrastructure/event-store/append-too-large.error';
import { EVENTSTORE_URL_PROTOCOLS } from '../infrastructure/event-store/esdb/connection-string';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Capability classes of the connector rate limits. */
export type RateLimitClass = 'search' | 'writes' | 'replies';

/** Validated configuration (ARCHITECTURE.md "Configuration"). */
export interface CairnConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Canonical base URL for links the service prints (no trailing slash). */
  publicUrl: string;
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
  elasticsearchUrl: string | null;
  openaiBaseUrl: string | null;
  openaiApiKey: string | null;
  composerModel: string | null;
  reviewerModel: string | null;
  embeddingModel: string | null;
  /** Largest accepted request body in bytes (CAIRN_MAX_BODY_BYTES, default 1 MiB). */
  maxBodyBytes: number;
  /** How long an HTTP write waits for its projections (CAIRN_CONSISTENCY_WAIT_MS, default 5000). */
  consistencyWaitMs: number;
  /**
   * How long a reply request's process holds it before a repeated request may reclaim it, i.e. how long a crashed
   * process blocks its request (CAIRN_REPLY_LEASE_MS, default 180000; must outlast a run's two model calls).
   */
  replyLeaseMs: number;
  /**
   * Safety limit: assistant replies per external thread (CAIRN_REPLY_THREAD_LIMIT, default 50). Stops two
   * auto-responders from replying to each other forever; the next request in that thread is
   * `assistant_safety_limit_reached`.
   */
  replyThreadLimit: number;
  /** Deadline of one model call (CAIRN_MODEL_TIMEOUT_MS, default 60000); past it the call is a timeout. */
  modelTimeoutMs: number;
  /**
   * Requests per minute one client IP may make to the public client pages (API, HTML pages and their assets
   * together) in one process (CAIRN_PUBLIC_RATE_LIMIT, default 300; 0 disables the limit). Past it: 429.
   */
  publicRateLimit: number;
  /**
   * Requests per minute one connector token may make, per capability class (CAIRN_RATE_LIMIT_SEARCH, default 600:
   * memory search and reads; CAIRN_RATE_LIMIT_WRITES, default 120: save, proposals, usage, feedback;
   * CAIRN_RATE_LIMIT_REPLIES, default 30: reply requests). 0 disables that class's limit. Counted in the shared
   * read store, so the limit holds across CAIRN_HTTP_WORKERS processes. Past it: 429 with Retry-After.
   */
  connectorRateLimits: Record<RateLimitClass, number>;
  /** CAIRN_METRICS=on serves Prometheus metrics at /metrics on the server's port (default off: 404). */
  metrics: boolean;
  /**
   * CAIRN_DEMO_MODEL=on (or `--demo-model`): replies come from the demo model (src/ai/demo-model.ts), which quotes
   * its evidence and is no language model; default off. Refused together with a configured model.
   */
  demoModel: boolean;
  /**
   * CAIRN_TRACE_RETENTION_DAYS (default 30; 0 keeps every trace): search traces older than this are pruned to a stub
   * (src/lifecycle/trace-retention.ts), keeping the audit chain verifiable (docs/audit.md).
   */
  traceRetentionDays: number;
  /** CAIRN_LOG_LEVEL: fatal, error, warn, info (default), debug, trace or silent. */
  logLevel: LogLevel;
  /**
   * HTTP server processes (CAIRN_HTTP_WORKERS, default 1; `auto`: one per CPU core, at most 16). Above 1 the
   * started process supervises that many workers sharing the port (src/server/http-workers.ts).
   */
  httpWorkers: number;
  /**
   * With httpWorkers > 1: how long each worker may take from its fork to listening
   * (CAIRN_HTTP_WORKER_START_TIMEOUT_MS, default 60000). A worker of the first start that is late or exits ends the
   * whole server with exit 1; a late replacement is killed (and counts as a death).
   */
  httpWorkerStartTimeoutMs: number;
  /**
   * Memory search: the weight of a title word against a body word (BM25F; the indexed title is the item's title
   * and the chunk's heading). CAIRN_SEARCH_TITLE_BOOST, 0–10, default 2; 1 scores title and body as one field.
   */
  searchTitleBoost: number;
  /**
   * The embedded event store's limit on one append, in bytes (CAIRN_MAX_APPEND_BYTES, default 1 MiB like
   * KurrentDB's MaxAppendSize, at least 1 MiB: Cairn splits large memory revisions into parts that fit it).
   */
  maxAppendBytes: number;
  /**
   * Browser origins allowed to call the connector API (CAIRN_CORS_ORIGINS, comma-separated `scheme://host[:port]`;
   * default none). The public directory and pages allow any origin for GET regardless (src/http/cors.ts).
   */
  corsOrigins: string[];
  /**
   * The embedded vector index (with CAIRN_EMBEDDING_MODEL, without ELASTICSEARCH_URL): how vectors are stored in
   * its graph (CAIRN_VECTOR_QUANTIZATION: f16 default, bf16, i8, f32) and the HNSW search breadth
   * (CAIRN_VECTOR_EF_SEARCH, 16–4096, default 640 as DEFAULT_ANN in ann-graph.ts; a search of k uses at least k).
   */
  vectorQuantization: 'i8' | 'f16' | 'bf16' | 'f32';
  vectorEfSearch: number;
  /**
   * The embedded search index's posting cache per process, in MiB (CAIRN_SEARCH_CACHE_MB, 16–4096, default 256):
   * terms' compressed postings kept between searches (posting-cache.ts). Each HTTP worker holds its own.
   */
  searchCacheMiB: number;
  /** How long the HTTP server waits for a client (docs/hardening.md#slow-and-idle-connections). */
  httpTimeouts: HttpTimeouts;
  /** MCP `GET /mcp` event streams (docs/mcp.md#event-streams-budgets-and-browsers). */
  mcpStreams: McpStreamLimits;
}

/** The HTTP server's deadlines; a client past one gets 408 and its connection is closed. */
export interface HttpTimeouts {
  /** From a request's first byte to the end of its headers (CAIRN_HTTP_HEADERS_TIMEOUT_MS, default 10000). */
  headersMs: number;
  /**
   * From a request's first byte to the end of its body (CAIRN_HTTP_REQUEST_TIMEOUT_MS, default 30000, at least
   * the headers timeout). Receiving only: a reply that takes minutes to compute, or an event stream, is not cut.
   */
  requestMs: number;
  /** An idle connection between two requests (CAIRN_HTTP_KEEP_ALIVE_TIMEOUT_MS, default 72000). */
  keepAliveMs: number;
}

/** Open `GET /mcp` event streams, counted per connector token in each process. */
export interface McpStreamLimits {
  /** At most this many per token; the next one is 429 `too_many_streams` (CAIRN_MCP_STREAMS_PER_TOKEN, 10). */
  perToken: number;
  /** A stream is closed after this long without a message (CAIRN_MCP_STREAM_IDLE_MS, default 300000). */
  idleMs: number;
}

export const DEFAULT_SEARCH_TITLE_BOOST = 2;

const MAX_HTTP_WORKERS = 16;
const MIB = 1024 * 1024;

type Env = Record<string, string | undefined>;

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

/** The forms a numeric variable may take: its pattern and how an error message names it. */
const NUMBER_FORMS = {
  integer: { pattern: /^\d+$/, described: 'an integer' },
  decimal: { pattern: /^\d+(?:\.\d{1,2})?$/, described: 'a number (at most two decimals)' },
} as const;

/** A non-negative number of the given form from min to max; the fallback when unset. */
function bounded(
  form: keyof typeof NUMBER_FORMS,
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
  errors: ErrorDetail[],
): number {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  const { pattern, described } = NUMBER_FORMS[form];
  if (!pattern.test(raw) || Number(raw) < min || Number(raw) > max) {
    errors.push({
      field: name,
      message: `${name} must be ${described} from ${min} to ${max} (got "${raw}")`,
    });
    return fallback;
  }
  return Number(raw);
}

const integer = (...args: DropFirst<Parameters<typeof bounded>>): number => bounded('integer', ...args);
const decimal = (...args: DropFirst<Parameters<typeof bounded>>): number => bounded('decimal', ...args);
type DropFirst<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

function url(env: Env, name: string, protocols: string[], errors: ErrorDetail[]): string | null {
  const raw = optional(env, name);
  if (raw === null) return null;
  try {
    const parsed = new URL(raw);
    if (!protocols.includes(parsed.protocol)) {
      errors.push({
        field: name,
        message: `${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`,
      });
    }
  } catch {
    errors.push({ field: name, message: `${name} is not a valid URL` });
  }
  return raw;
}

/** One of `values` (default `fallback`). */
function oneOf<T extends string>(
  env: Env,
  name: string,
  values: readonly T[],
  fallback: T,
  errors: ErrorDetail[],
): T {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  errors.push({ field: name, message: `${name} must be one of ${values.join(', ')} (got "${raw}")` });
  return fallback;
}

/** A comma-separated list of http(s) origins (`scheme://host[:port]`, no path); blank items are ignored. */
function origins(env: Env, name: string, errors: ErrorDetail[]): string[] {
  const items = (optional(env, name) ?? '')
    .split(',')
    .map((item) => item.trim().replace(/\/+$/, ''))
    .filter((item) => item !== '');
  for (const item of items) {
    let origin: string | null = null;
    try {
      const parsed = new URL(item);
      origin = ['http:', 'https:'].includes(parsed.protocol) ? parsed.origin : null;
    } catch {
      origin = null;
    }
    if (origin !== item) {
      errors.push({
        field: name,
        message: `${name}: "${item}" is not an http(s) origin like https://app.example.com`,
      });
    }
  }
  return items;
}

/** CAIRN_HTTP_WORKERS: 1–MAX_HTTP_WORKERS, or `auto` (one per CPU core, at most MAX_HTTP_WORKERS). */
function httpWorkers(env: Env, errors: ErrorDetail[]): number {
  const raw = optional(env, 'CAIRN_HTTP_WORKERS');
  if (raw === 'auto') return Math.min(availableParallelism(), MAX_HTTP_WORKERS);
  const problems: ErrorDetail[] = [];
  const value = integer(env, 'CAIRN_HTTP_WORKERS', 1, 1, MAX_HTTP_WORKERS, problems);
  for (const problem of problems) errors.push({ ...problem, message: `${problem.message} or "auto"` });
  return value;
}

/** CAIRN_HTTP_*_TIMEOUT_MS; Node refuses a headers timeout longer than the request timeout, so does this. */
function httpTimeouts(env: Env, errors: ErrorDetail[]): HttpTimeouts {
  const timeouts: HttpTimeouts = {
    headersMs: integer(env, 'CAIRN_HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000, errors),
    requestMs: integer(env, 'CAIRN_HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000, errors),
    keepAliveMs: integer(env, 'CAIRN_HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000, errors),
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    errors.push({
      field: 'CAIRN_HTTP_HEADERS_TIMEOUT_MS',
      message: `CAIRN_HTTP_HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must not exceed CAIRN_HTTP_REQUEST_TIMEOUT_MS (${timeouts.requestMs})`,
    });
  }
  return timeouts;
}

/** The demo model stands in for the reply models: configuring both is a mistake worth stopping for. */
export function demoModelConflicts(
  config: Pick<CairnConfig, 'openaiBaseUrl' | 'composerModel' | 'reviewerModel'>,
): ErrorDetail[] {
  const set = [
    ...(config.openaiBaseUrl ? ['OPENAI_BASE_URL'] : []),
    ...(config.composerModel ? ['CAIRN_COMPOSER_MODEL'] : []),
    ...(config.reviewerModel ? ['CAIRN_REVIEWER_MODEL'] : []),
  ];
  return set.map((name) => ({
    field: 'CAIRN_DEMO_MODEL',
    message: `the demo model (CAIRN_DEMO_MODEL=on or --demo-model) replaces the reply models: unset ${name}, or turn the demo model off`,
  }));
}

/** Reads and validates the environment; throws ValidationFailedError listing every problem at once. */
export function loadConfig(env: Env = process.env): CairnConfig {
  const errors: ErrorDetail[] = [];
  const port = integer(env, 'PORT', 3000, 0, 65535, errors);
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  const publicUrl = url(env, 'CAIRN_PUBLIC_URL', ['http:', 'https:'], errors);
  const config: CairnConfig = {
    port,
    host,
    dataDir: resolve(optional(env, 'CAIRN_DATA_DIR') ?? './data'),
    publicUrl: (publicUrl ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`).replace(/\/+$/, ''),
    eventStoreUrl: url(env, 'EVENTSTORE_URL', [...EVENTSTORE_URL_PROTOCOLS], errors),
    mongodbUrl: url(env, 'MONGODB_URL', ['mongodb:', 'mongodb+srv:'], errors),
    elasticsearchUrl: url(env, 'ELASTICSEARCH_URL', ['http:', 'https:'], errors),
    openaiBaseUrl: url(env, 'OPENAI_BASE_URL', ['http:', 'https:'], errors),
    openaiApiKey: optional(env, 'OPENAI_API_KEY'),
    composerModel: optional(env, 'CAIRN_COMPOSER_MODEL'),
    reviewerModel: optional(env, 'CAIRN_REVIEWER_MODEL'),
    embeddingModel: optional(env, 'CAIRN_EMBEDDING_MODEL'),
    maxBodyBytes: integer(env, 'CAIRN_MAX_BODY_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024, errors),
    consistencyWaitMs: integer(env, 'CAIRN_CONSISTENCY_WAIT_MS', 5000, 0, 120_000, errors),
    replyLeaseMs: integer(env, 'CAIRN_REPLY_LEASE_MS', 180_000, 1000, 3_600_000, errors),
    replyThreadLimit: integer(env, 'CAIRN_REPLY_THREAD_LIMIT', 50, 1, 100_000, errors),
    modelTimeoutMs: integer(env, 'CAIRN_MODEL_TIMEOUT_MS', 60_000, 100, 600_000, errors),
    publicRateLimit: integer(env, 'CAIRN_PUBLIC_RATE_LIMIT', 300, 0, 1_000_000, errors),
    connectorRateLimits: {
      search: integer(env, 'CAIRN_RATE_LIMIT_SEARCH', 600, 0, 10_000_000, errors),
      writes: integer(env, 'CAIRN_RATE_LIMIT_WRITES', 120, 0, 10_000_000, errors),
      replies: integer(env, 'CAIRN_RATE_LIMIT_REPLIES', 30, 0, 10_000_000, errors),
    },
    httpWorkers: httpWorkers(env, errors),
    httpWorkerStartTimeoutMs: integer(
      env,
      'CAIRN_HTTP_WORKER_START_TIMEOUT_MS',
      60_000,
      100,
      3_600_000,
      errors,
    ),
    metrics: oneOf(env, 'CAIRN_METRICS', ['on', 'off'] as const, 'off', errors) === 'on',
    demoModel: oneOf(env, 'CAIRN_DEMO_MODEL', ['on', 'off'] as const, 'off', errors) === 'on',
    traceRetentionDays: integer(env, 'CAIRN_TRACE_RETENTION_DAYS', 30, 0, 36_500, errors),
    logLevel: oneOf(env, 'CAIRN_LOG_LEVEL', LOG_LEVELS, 'info', errors),
    searchTitleBoost: decimal(env, 'CAIRN_SEARCH_TITLE_BOOST', DEFAULT_SEARCH_TITLE_BOOST, 0, 10, errors),
    maxAppendBytes: integer(env, 'CAIRN_MAX_APPEND_BYTES', MIB, MIB, MAX_APPEND_BYTES_CEILING, errors),
    corsOrigins: origins(env, 'CAIRN_CORS_ORIGINS', errors),
    vectorQuantization: oneOf(
      env,
      'CAIRN_VECTOR_QUANTIZATION',
      ['i8', 'f16', 'bf16', 'f32'] as const,
      'f16',
      errors,
    ),
    vectorEfSearch: integer(env, 'CAIRN_VECTOR_EF_SEARCH', 640, 16, 4096, errors),
    searchCacheMiB: integer(env, 'CAIRN_SEARCH_CACHE_MB', 256, 16, 4096, errors),
    httpTimeouts: httpTimeouts(env, errors),
    mcpStreams: {
      perToken: integer(env, 'CAIRN_MCP_STREAMS_PER_TOKEN', 10, 1, 1000, errors),
      idleMs: integer(env, 'CAIRN_MCP_STREAM_IDLE_MS', 300_000, 1000, 86_400_000, errors),
    },
  };
  if (config.demoModel) errors.push(...demoModelConflicts(config));
  if (errors.length > 0) {
    throw new ValidationFailedError(
      `invalid configuration: ${errors.map((e) => e.message).join('; ')}`,
      errors,
      'invalid_configuration',
    );
  }
  return config;
}

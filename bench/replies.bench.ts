/**
 * Assistant reply benchmark (spec §4.6, `POST …/assistant/replies`): a real Cairn server (in-process, HTTP on
 * 127.0.0.1, embedded stores under `dir`) whose composer and reviewer are an OpenAI-compatible server that
 * answers at once (src/ai/demo-model-server.ts, in this process too), so a reply's latency is the pipeline's own
 * overhead: auth, validation, the request record, the conversation, retrieval and its recall trace, two model
 * round trips over HTTP through the `openai` SDK, the checks around them, the assistant message and the receipt.
 *
 * One organization with one assistant and a strict `assistant_reply` connector; its memory is ITEM_COUNT
 * customer-safe, approved FAQ-style items (reply-corpus.ts), ingested through the real path, so retrieval ranks
 * real candidates (REPLY_EVIDENCE_LIMIT of them reach the model). Embeddings stay off (CAIRN_EMBEDDING_MODEL
 * unset): search is lexical, as in a default deployment.
 *
 * Sequential, one request at a time over a keep-alive connection, after a warm-up:
 * - new replies: each with a fresh idempotency_key and external_thread_id, NEW_REPLIES requests;
 * - replays: the completed replies' requests sent again (same key, same content), REPLAYS requests.
 * The model server's share is the time it spent handling the new replies' model calls over their total latency.
 */
import { CommandBus } from '@nestjs/cqrs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { CreateChatbotCommand } from '../src/commands/chatbots/create-chatbot.command';
import type { CreateChatbotResult } from '../src/commands/chatbots/create-chatbot.command';
import { RegisterConnectorCommand } from '../src/commands/connectors/register-connector.command';
import type { RegisterConnectorResult } from '../src/commands/connectors/register-connector.command';
import { IngestDocumentCommand } from '../src/commands/memory/ingest-document.command';
import type { IngestDocumentResult } from '../src/commands/memory/ingest-document.command';
import { RegisterOrganizationCommand } from '../src/commands/organizations/register-organization.command';
import type { RegisterOrganizationResult } from '../src/commands/organizations/register-organization.command';
import { operatorContext } from '../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../src/commands/shared/stream-command-executor';
import { loadConfig } from '../src/config/config';
import { BENCH_RATE_LIMITS } from './bench-rate-limits';
import { createHttpApp } from '../src/http/create-http-app';
import { STORES, type Stores } from '../src/infrastructure/stores';
import { startInstantModelServer, type InstantModelServer } from '../src/ai/demo-model-server';
import { ITEM_COUNT, replyCorpus } from './reply-corpus';
import type { BenchRow } from './table';

const REPLIES_PATH = '/app/api/tool-connectors/v1/assistant/replies';
const WARMUP = 30;
const NEW_REPLIES = 200;
const REPLAYS = 500;
const OVERHEAD_TARGET_MS = 25;
const REPLAY_TARGET_MS = 5;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

interface ReplyBody {
  ok?: boolean;
  grounding?: { idempotent_replay?: boolean };
  system_status?: { code?: string };
}

/** One POST over a keep-alive agent; the latency ends when the whole body is in. */
function post(
  agent: Agent,
  baseUrl: string,
  token: string,
  body: string,
): Promise<{ status: number; body: ReplyBody; ms: number }> {
  const url = new URL(REPLIES_PATH, baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as ReplyBody, ms });
          } catch {
            reject(new Error(`a non-JSON answer (${res.statusCode}): ${text.slice(0, 500)}`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Seeds the memory through the real ingestion path; returns the questions. */
async function seed(
  commands: CommandBus,
  executor: StreamCommandExecutor,
  stores: Stores,
  organizationId: number,
): Promise<string[]> {
  const context = operatorContext('bench');
  const corpus = replyCorpus();
  for (const { document } of corpus) {
    await commands.execute<IngestDocumentCommand, IngestDocumentResult>(
      new IngestDocumentCommand(organizationId, document, context, { waitForReadModels: false }),
    );
  }
  await executor.settle(await stores.eventStore.headPosition());
  return corpus.map((item) => item.question);
}

export async function benchReplies(dir: string): Promise<BenchRow[]> {
  const model: InstantModelServer = await startInstantModelServer();
  const config = loadConfig({
    CAIRN_DATA_DIR: join(dir, 'replies'),
    PORT: '0',
    HOST: '127.0.0.1',
    CAIRN_CONSISTENCY_WAIT_MS: '120000',
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'bench',
    CAIRN_COMPOSER_MODEL: 'bench-composer',
    CAIRN_REVIEWER_MODEL: 'bench-reviewer',
    ...BENCH_RATE_LIMITS,
  });
  const app = await createHttpApp({ config }, { logger: ['error', 'fatal'] });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const commands = app.get(CommandBus);
    const context = operatorContext('bench');
    const org = await commands.execute<RegisterOrganizationCommand, RegisterOrganizationResult>(
      new RegisterOrganizationCommand('Replies bench', null, null, context),
    );
    await commands.execute<CreateChatbotCommand, CreateChatbotResult>(
      new CreateChatbotCommand(org.organization_id, 'Front desk', null, context),
    );
    const connector = await commands.execute<RegisterConnectorCommand, RegisterConnectorResult>(
      new RegisterConnectorCommand(org.organization_id, 'bench', ['assistant_reply'], 'strict', context),
    );
    process.stderr.write(`replies: ingesting ${ITEM_COUNT} items…\n`);
    const questions = await seed(
      commands,
      app.get(StreamCommandExecutor),
      app.get<Stores>(STORES),
      org.organization_id,
    );

    const requestBody = (i: number): string =>
      JSON.stringify({
        external_thread_id: `bench-thread-${i}`,
        external_message_id: `bench-message-${i}`,
        idempotency_key: `bench-reply-${i}`,
        channel: 'email',
        response_mode: 'suggested_reply',
        payload: {
          text: questions[(i * 7) % questions.length],
          subject: 'Question about my appointment',
          from: `patient${i}@example.com`,
          sent_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
          history: [
            { role: 'customer', text: 'Hello, I have a question.' },
            { role: 'organization', text: 'Of course, how can we help?' },
          ],
        },
        metadata: { source: 'bench' },
      });
    const send = async (i: number, replay: boolean): Promise<number> => {
      const res = await post(agent, baseUrl, connector.token, requestBody(i));
      const ok =
        res.status === 200 && res.body.ok === true && res.body.grounding?.idempotent_replay === replay;
      if (!ok) {
        const detail = JSON.stringify(res.body).slice(0, 500);
        throw new Error(`reply ${i}${replay ? ' (replay)' : ''} failed: HTTP ${res.status} ${detail}`);
      }
      return res.ms;
    };

    process.stderr.write(`replies: ${WARMUP} warm-up, then ${NEW_REPLIES} new replies…\n`);
    for (let i = 0; i < WARMUP; i++) await send(i, false);
    for (let i = 0; i < WARMUP; i++) await send(i, true);
    model.resetStats();
    const fresh: number[] = [];
    // CPU time of this process (server and model server) per new reply: unlike latency, barely moved by whatever
    // else the machine runs, so a before/after comparison holds on a loaded machine.
    const cpuBefore = process.cpuUsage();
    for (let i = WARMUP; i < WARMUP + NEW_REPLIES; i++) fresh.push(await send(i, false));
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerReply = (cpu.user + cpu.system) / 1000 / NEW_REPLIES;
    const modelMs = model.stats.busyMs;
    const modelCalls = model.stats.chat;
    const evidencePerDraft = model.stats.draftEvidence / NEW_REPLIES;
    if (modelCalls !== 2 * NEW_REPLIES || model.stats.rejected > 0)
      throw new Error(`unexpected model calls: ${JSON.stringify(model.stats)}`);

    process.stderr.write(`replies: ${REPLAYS} replays…\n`);
    model.resetStats();
    const replays: number[] = [];
    for (let n = 0; n < REPLAYS; n++) replays.push(await send(WARMUP + (n % NEW_REPLIES), true));
    if (model.stats.chat > 0) throw new Error('a replay called the model');

    const freshTotal = fresh.reduce((a, b) => a + b, 0);
    fresh.sort((a, b) => a - b);
    replays.sort((a, b) => a - b);
    const overheadP50 = percentile(fresh, 0.5);
    const replayP50 = percentile(replays, 0.5);
    return [
      {
        benchmark: `reply, instant model (pipeline overhead) p50, ${ITEM_COUNT} items`,
        value: overheadP50,
        unit: 'ms',
        target: `<= ${OVERHEAD_TARGET_MS}`,
        ok: overheadP50 <= OVERHEAD_TARGET_MS,
      },
      {
        benchmark: `reply, instant model (pipeline overhead) p95, ${ITEM_COUNT} items`,
        value: percentile(fresh, 0.95),
        unit: 'ms',
      },
      {
        benchmark: 'reply, instant model: CPU per new reply (server + model)',
        value: cpuPerReply,
        unit: 'ms',
      },
      {
        benchmark: 'reply, instant model: model server time share',
        value: (100 * modelMs) / freshTotal,
        unit: '%',
      },
      {
        benchmark: 'reply, instant model: model server time per call',
        value: modelMs / modelCalls,
        unit: 'ms',
      },
      { benchmark: 'reply, instant model: evidence items per draft', value: evidencePerDraft, unit: 'items' },
      {
        benchmark: 'reply replay over HTTP p50',
        value: replayP50,
        unit: 'ms',
        target: `<= ${REPLAY_TARGET_MS}`,
        ok: replayP50 <= REPLAY_TARGET_MS,
      },
      { benchmark: 'reply replay over HTTP p95', value: percentile(replays, 0.95), unit: 'ms' },
    ];
  } finally {
    agent.destroy();
    await app.close();
    await model.close();
  }
}

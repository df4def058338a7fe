import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { NewEvent } from '../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { SqliteReadStore } from '../src/infrastructure/read-store/sqlite/sqlite-read-store';
import { SqliteSearchIndex } from '../src/infrastructure/search/sqlite/sqlite-search-index';
import { openSqlite } from '../src/infrastructure/sqlite/sqlite-connection';
import { walFlusherFor } from '../src/infrastructure/sqlite/wal-flusher';
import { ALL_PROJECTIONS } from '../src/projections/all-projections';
import { ProjectionRunner } from '../src/projections/projection-runner';
import { meta, sealingCost } from './sealing-cost';
import type { BenchRow } from './table';

/** One organization's history: 10 events over its own, a chatbot's and a connector's streams. */
function history(org: number): Array<{ stream: string; events: NewEvent[] }> {
  const token = (n: number) => ({
    token_id: `tok_${org}_${n}`,
    token_sha256: randomUUID().replace(/-/g, '').padEnd(64, '0'),
  });
  return [
    {
      stream: `organization-${org}`,
      events: [
        {
          type: 'OrganizationRegistered',
          data: { organization_id: org, name: `Org ${org}`, slug: `org-${org}`, website_url: null },
          metadata: meta(org),
        },
        {
          type: 'OrganizationPlanLimitSet',
          data: { organization_id: org, monthly_replies: 1000 },
          metadata: meta(org),
        },
        { type: 'OrganizationAgentActivityPaused', data: { organization_id: org }, metadata: meta(org) },
      ],
    },
    {
      stream: `chatbot-${org}`,
      events: [
        {
          type: 'ChatbotCreated',
          data: { chatbot_id: org, organization_id: org, name: 'Bot', allowed_domain: null },
          metadata: meta(org),
        },
        { type: 'ChatbotPaused', data: { chatbot_id: org, organization_id: org }, metadata: meta(org) },
      ],
    },
    {
      stream: `connector-${org}`,
      events: [
        {
          type: 'ConnectorRegistered',
          data: {
            connector_id: org,
            organization_id: org,
            name: 'C',
            client_key: `ck_${org}`,
            capabilities: ['memory_search'],
            grounding_policy: 'strict',
          },
          metadata: meta(org),
        },
        ...[0, 1, 2].map((n) => ({
          type: 'ConnectorTokenIssued',
          data: { connector_id: org, ...token(n), supersedes_token_id: n ? `tok_${org}_${n - 1}` : null },
          metadata: meta(org),
        })),
        {
          type: 'ConnectorTokenRevoked',
          data: { connector_id: org, token_id: `tok_${org}_2` },
          metadata: meta(org),
        },
      ],
    },
  ];
}

export async function benchEventCore(dir: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];

  // 1. Single-event appends one after another, one transaction each, as the API appends: committed with
  //    synchronous=NORMAL, each acknowledged after a WAL sync that started after it (wal-flusher.ts).
  {
    const path = join(dir, 'appends.sqlite');
    const db = openSqlite({ path, synchronous: 'NORMAL' });
    const wal = walFlusherFor(path);
    const store = new SqliteEventStore(db, { flusher: wal.flusher });
    const n = 5000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      await store.append(`bench-${i % 500}`, [{ type: 'Tick', data: { i }, metadata: meta(1) }], 'any');
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rows.push({
      benchmark: `single-event appends (${n}, one transaction each)`,
      value: n / seconds,
      unit: 'appends/s',
      target: '>= 2,000',
      ok: n / seconds >= 2000,
    });
    await store.close();
    wal.close();
    db.close();
  }

  // 1b. The cost of sealing (issue 33): memory-item appends carrying ~2 KB of text, through the plain store and
  //     through the sealing store (its text AES-256-GCM under the item's data key), interleaved rounds in one run.
  rows.push(...(await sealingCost(dir)));

  // 2. Projection catch-up and 3. rebuild, over 100k events of 10k organizations.
  const db = openSqlite({ path: join(dir, 'projections.sqlite') });
  const store = new SqliteEventStore(db);
  const orgs = 10_000;
  for (let org = 1; org <= orgs; org++) {
    for (const { stream, events } of history(org)) await store.append(stream, events, 'no_stream');
  }
  const total = await store.headPosition();
  const readStore = new SqliteReadStore(db);
  const runner = new ProjectionRunner(store, readStore, new SqliteSearchIndex(db), ALL_PROJECTIONS, {
    owner: 'bench',
    pollIntervalMs: 5,
  });
  await runner.prepare();
  let started = process.hrtime.bigint();
  runner.start();
  if (!(await runner.waitFor(total, 600_000))) throw new Error('catch-up did not finish');
  let seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // Distinct events per second with every projection applied (each projection reads every event).
  const perSecond = total / seconds;
  rows.push({
    benchmark: `projection catch-up (${total.toLocaleString('en-US')} events, all ${ALL_PROJECTIONS.length} projections)`,
    value: perSecond,
    unit: 'events/s',
    target: '>= 20,000',
    ok: perSecond >= 20_000,
  });
  started = process.hrtime.bigint();
  await runner.rebuild(undefined, 600_000);
  seconds = Number(process.hrtime.bigint() - started) / 1e9;
  rows.push({
    benchmark: `rebuild all read models (${total.toLocaleString('en-US')} events)`,
    value: seconds,
    unit: 's',
    target: '< 10',
    ok: seconds < 10,
  });
  await runner.stop();
  await store.close();
  db.close();
  return rows;
}

import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { SetChatbotPausedCommand } from '../../src/commands/chatbots/set-chatbot-paused.command';
import { ChangeOrganizationCommand } from '../../src/commands/organizations/change-organization.command';
import { ArchiveMemoryItemCommand } from '../../src/commands/memory/archive-memory-item.command';
import { IngestDocumentCommand } from '../../src/commands/memory/ingest-document.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { openSqlite } from '../../src/infrastructure/sqlite/sqlite-connection';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { cairn } from '../support/cli';
import { changeConnector, createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, ingest, MEMORY } from '../support/memory-fixtures';
import { makeTempDir } from '../support/temp-dir';
import { http, startTestApp, type TestApp } from '../support/test-app';

describe('projections: rebuild', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  async function snapshot(runner: ProjectionRunner): Promise<Record<string, unknown[]>> {
    const result: Record<string, unknown[]> = {};
    for (const projection of runner.projections) {
      for (const collection of projection.collections) {
        result[collection.name] = (await t.stores.readStore.find(collection.name, { limit: 10_000 })).items;
      }
    }
    const search: unknown[] = [];
    for await (const doc of t.stores.searchIndex.dump()) search.push(doc);
    result.search_index = search;
    return result;
  }

  it('rebuilding every read model reproduces the live one exactly', async () => {
    const context = operatorContext('test');
    for (let i = 0; i < 5; i++) {
      const org = await createOrganization(t.commands);
      const bot = await t.commands.execute(
        new CreateChatbotCommand(org.organization_id, `Bot ${i}`, 'example.com', context),
      );
      await t.commands.execute(
        new SetChatbotPausedCommand(org.organization_id, bot.chatbot_id, true, context),
      );
      const connector = await createConnector(t.commands, org.organization_id, ['memory_search']);
      await changeConnector(t.commands, org.organization_id, connector.connector_id, { type: 'RotateToken' });
      if (i % 2)
        await changeConnector(t.commands, org.organization_id, connector.connector_id, {
          type: 'RevokeToken',
        });
      await t.commands.execute(
        new ChangeOrganizationCommand(org.organization_id, { type: 'PauseAgentActivity' }, context),
      );
      await t.commands.execute(
        new ChangeOrganizationCommand(
          org.organization_id,
          { type: 'SetPlanLimit', monthly_replies: 100 + i },
          context,
        ),
      );
    }
    for (let i = 0; i < 5; i++) {
      const org = await createOrganization(t.commands, 'Memory');
      for (const version of [
        '# Hours\n\nOpen 9 to 5.',
        '# Hours\n\nOpen 8 to 6.\n\n# Prices\n\nCleaning $90.',
      ]) {
        await t.commands.execute(
          new IngestDocumentCommand(
            org.organization_id,
            {
              document_key: `doc-${i}`,
              title: `Doc ${i}`,
              content: version,
              format: 'markdown',
              type: 'faq',
              audience: 'customer_safe',
              authority_level: 'approved_source',
              source_label: 'site',
              source_uri: null,
              source_date: null,
              effective_at: null,
              expires_at: null,
              summary: null,
            },
            context,
          ),
        );
      }
    }
    const runner = t.app.get(ProjectionRunner);
    const live = await snapshot(runner);
    expect(live.organizations).toHaveLength(10);
    expect(live.connector_tokens).toHaveLength(10);
    expect(live.memory_items).toHaveLength(5);
    expect(live.search_index).toHaveLength(10);
    const rebuilt = await runner.rebuild(undefined, 30_000);
    expect(rebuilt.map((r) => r.name)).toEqual([
      'organizations',
      'chatbots',
      'connectors',
      'memory',
      'memory-usage',
      'memory-proposals',
      'conversations',
      'replies',
      'assistant-tools',
      'client-pages',
    ]);
    expect(await snapshot(runner)).toEqual(live);
    const status = await runner.status();
    for (const s of status) expect(s.lag).toBe(0);
  });
});

/** Every table of the embedded SQLite file, row by row in primary-key order (what `projections:rebuild` must reproduce). */
function dumpTables(dataDir: string): Record<string, unknown[]> {
  const db = openSqlite({ path: join(dataDir, 'cairn.sqlite'), readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
      )
      .all()
      .map((row) => row.name);
    const result: Record<string, unknown[]> = {};
    for (const table of tables) {
      const key = db
        .prepare<[], { name: string; pk: number }>(`SELECT name, pk FROM pragma_table_info('${table}')`)
        .all()
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name);
      const order = key.length > 0 ? key.join(', ') : 'rowid';
      result[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all();
    }
    return result;
  } finally {
    db.close();
  }
}

describe('projections:rebuild (CLI) on the embedded store: every table identical', () => {
  jest.setTimeout(180_000);
  const data = makeTempDir();
  afterAll(() => data.cleanup());

  it('reproduces the read models and the search index row for row, twice', async () => {
    const t = await startTestApp({}, data.dir);
    try {
      const context = operatorContext('test');
      const orgs = [
        (await createOrganization(t.commands, 'Clinic')).organization_id,
        (await createOrganization(t.commands, 'Garage')).organization_id,
      ];
      for (const org of orgs) {
        const tokens = [
          (await createConnector(t.commands, org, ALL_MEMORY)).token,
          (await createConnector(t.commands, org, ALL_MEMORY)).token,
        ];
        const items: number[] = [];
        for (let d = 0; d < 4; d++) {
          for (let revision = 0; revision < 3; revision++) {
            const sections = Array.from(
              { length: 3 + revision },
              (_, s) =>
                `## Section ${s} of ${d}\n\nVisits in room ${s + revision} cost $${40 + s * 10 + revision}. ` +
                `Parking behind building ${d} is free on weekdays, revision ${revision}.`,
            );
            const result = await ingest(
              t.commands,
              org,
              `Guide ${d}`,
              `# Guide ${d}\n\n${sections.join('\n\n')}`,
              {
                document_key: `guide-${org}-${d}`,
              },
            );
            if (revision === 0) items.push(result.memory_item_id);
          }
        }
        await t.commands.execute(new ArchiveMemoryItemCommand(org, items[1], context));
        for (let s = 0; s < 6; s++) {
          const res = await http(t.baseUrl, 'POST', `${MEMORY}/save`, {
            token: tokens[s % 2],
            body: {
              kind: 'handoff',
              title: `Handoff ${s}`,
              content: `Customer ${s} asked about invoice ${s * 7} and the parking rules.`,
              ...(s % 3 === 0 ? { visibility: 'organization_internal' } : {}),
            },
          });
          expect(res.status).toBe(200);
        }
        const found = await http(t.baseUrl, 'POST', `${MEMORY}/search`, {
          token: tokens[0],
          body: { query: 'parking' },
        });
        expect(found.status).toBe(200);
        expect(found.body.results.length).toBeGreaterThan(0);
      }
    } finally {
      await t.app.close();
    }

    const live = dumpTables(data.dir);
    expect(live.search_index_documents.length).toBeGreaterThan(40);
    expect(live.search_index_postings.length).toBeGreaterThan(0);
    const rebuild = async (): Promise<Record<string, unknown[]>> => {
      const res = await cairn(data.dir, 'projections:rebuild');
      expect(res.code).toBe(0);
      return dumpTables(data.dir);
    };
    const once = await rebuild();
    const head = Math.max(...once.events.map((event) => (event as { position: number }).position));
    for (const checkpoint of once.projection_checkpoints)
      expect(checkpoint).toMatchObject({ position: head });
    expect(differing(comparable(once), comparable(live))).toEqual([]);
    expect(comparable(once)).toEqual(comparable(live));
    const twice = await rebuild();
    expect(differing(comparable(twice), comparable(once))).toEqual([]);
    expect(comparable(twice)).toEqual(comparable(once));
  });
});

/** The tables (and row counts) whose rows differ: a short failure message before the full comparison. */
function differing(a: Record<string, unknown[]>, b: Record<string, unknown[]>): string[] {
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return names
    .filter((name) => !isDeepStrictEqual(a[name], b[name]))
    .map((name) => {
      const left = a[name] ?? [];
      const right = b[name] ?? [];
      const rows = left.filter((row, i) => !isDeepStrictEqual(row, right[i])).length;
      return `${name}: ${rows} of ${left.length} rows differ (${right.length} before)`;
    });
}

/**
 * The tables as a rebuild must reproduce them. Not compared: a checkpoint's `updated_at` (when it was written) and
 * `position` (a live projection defers moving it over events it writes nothing for, here the last search's recall
 * trace, appended after the search answered; a rebuild's ends at the head), `leases` (which process runs a
 * projection, until when) and `window_counters` (rate limits): none of them is derived from the events.
 */
function comparable(tables: Record<string, unknown[]>): Record<string, unknown[]> {
  const { leases, window_counters, projection_checkpoints, ...rest } = tables;
  void leases;
  void window_counters;
  return {
    ...rest,
    projection_checkpoints: projection_checkpoints.map((row) => ({
      ...(row as object),
      position: null,
      updated_at: null,
    })),
  };
}

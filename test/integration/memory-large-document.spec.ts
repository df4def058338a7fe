/**
 * A document of the largest accepted size (2,000,000 characters) on an event store that refuses appends over
 * 1 MiB (KurrentDB's default, which the embedded store enforces too): its revision is written in parts, and it
 * ingests, searches, fetches, replies, re-ingests unchanged and revises like any small document.
 */
import { createHash } from 'node:crypto';
import { splitContent } from '../../src/commands/memory/content-parts';
import { MAX_DOCUMENT_CHARS, prepareContent } from '../../src/commands/memory/document-content';
import type { DocumentInput } from '../../src/commands/memory/ingest-document.command';
import { memoryItemDecider } from '../../src/commands/memory/memory-item.decider';
import { MemoryItemWriter } from '../../src/commands/memory/memory-item-writer';
import { operatorContext } from '../../src/commands/shared/command-context';
import { StreamCommandExecutor } from '../../src/commands/shared/stream-command-executor';
import { DEFAULT_MAX_APPEND_BYTES } from '../../src/infrastructure/event-store/append-too-large.error';
import { verifyChain } from '../../src/infrastructure/event-store/hash-chain';
import { UnsafeContentScanner } from '../../src/safety/unsafe-content/unsafe-content-scanner';
import { EraseSubjectCommand } from '../../src/commands/erasure/erase-subject.command';
import {
  ReviseMemoryItemCommand,
  type ReviseMemoryItemResult,
} from '../../src/commands/memory/revise-memory-item.command';
import { ProjectionRunner } from '../../src/projections/projection-runner';
import { MEMORY, ingest } from '../support/memory-fixtures';
import { http } from '../support/test-app';
import {
  citeAllEvidence,
  postReply,
  replyBody,
  replyConnector,
  startReplyHarness,
  type ReplyHarness,
} from '../support/reply-fixtures';

const WORDS = ['clinic', 'patients', 'appointment', 'morning', 'evening', 'weekday', 'parking', 'dentist'];

/** Exactly `chars` characters of varied prose, with `fact` as the last paragraph. */
function largeDocument(chars: number, fact: string): string {
  const paragraphs: string[] = [];
  let length = 0;
  for (let n = 0; length < chars; n += 1) {
    const words = Array.from({ length: 40 }, (_, k) => WORDS[(n * 7 + k * 3) % WORDS.length]).join(' ');
    const paragraph = `Section ${n}: the ${words}.\n\n`;
    paragraphs.push(paragraph);
    length += paragraph.length;
  }
  const tail = `\n\n${fact}`;
  return (paragraphs.join('').slice(0, chars - tail.length) + tail).slice(0, chars);
}

/** About `chars` characters of words drawn from SHA-256 digests: text that compresses little. */
function randomWords(chars: number): string {
  const words: string[] = [];
  for (let n = 0, length = 0; length < chars; n += 1) {
    const digest = createHash('sha256').update(String(n)).digest('base64').replace(/[+/=]/g, '');
    for (let at = 0; at + 8 <= digest.length; at += 8) words.push(digest.slice(at, at + 8));
    length += 36;
  }
  return words.join(' ').slice(0, chars);
}

/** The events as written (sealed): what the append limit and the hash chain apply to. */
const stored = (h: ReplyHarness) => h.t.stores.sealedEventStore ?? h.t.stores.eventStore;

describe('a 2,000,000-character document on a 1 MiB append limit', () => {
  let h: ReplyHarness;
  beforeAll(async () => {
    h = await startReplyHarness('Large documents');
    // This spec is about append limits: the scanner's fail-closed time budget (2 s a field, tested in
    // scanner-linear-time.spec.ts) refused the 2,000,000-character scan on a machine at load 14.
    h.t.app.get(UnsafeContentScanner).budgetMs = 30_000;
  });
  afterAll(async () => h.close());

  it('ingests in appends under the limit, then searches, fetches, replies and revises', async () => {
    const fact = 'The zqlargeotter pool opens at nine every Saturday.';
    const content = largeDocument(MAX_DOCUMENT_CHARS, fact);
    expect(content).toHaveLength(MAX_DOCUMENT_CHARS);
    const key = { document_key: 'large-handbook' };
    const created = await ingest(h.t.commands, h.organizationId, 'Handbook', content, key);
    expect(created.status).toBe('created');
    expect(created.chunks).toBeGreaterThan(1000);

    // Every append fitted the limit: the store refuses larger ones, and the stream holds several events.
    const stream = `memory-item-${created.memory_item_id}`;
    const events = await stored(h).readStream(stream);
    expect(events.length).toBeGreaterThan(2);
    for (const event of events) {
      expect(Buffer.byteLength(JSON.stringify(event.data))).toBeLessThan(DEFAULT_MAX_APPEND_BYTES);
    }
    expect(verifyChain(events)).toBeNull();

    const { token } = await replyConnector(h);
    const search = await http(h.t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'zqlargeotter' },
    });
    expect(search.status).toBe(200);
    const results = search.body.results as Array<{ memory_item_id: number }>;
    expect(results.map((result) => result.memory_item_id)).toEqual([created.memory_item_id]);

    const item = await http(h.t.baseUrl, 'GET', `${MEMORY}/items/${created.memory_item_id}`, { token });
    expect(item.status).toBe(200);
    expect(item.body.content === content).toBe(true);

    h.model.script.respond('draft', citeAllEvidence);
    const answered = await postReply(h, token, replyBody('large-1', 'When does the zqlargeotter pool open?'));
    expect(answered.body).toMatchObject({ ok: true });
    const cited = (answered.body.references as Array<{ memory_item_id: number }>).map(
      (r) => r.memory_item_id,
    );
    expect(cited).toContain(created.memory_item_id);

    const again = await ingest(h.t.commands, h.organizationId, 'Handbook', content, key);
    expect(again).toMatchObject({ status: 'unchanged', revision: 1 });

    const revisedContent = content.replace('zqlargeotter', 'zqlargemouse');
    const revised = await ingest(h.t.commands, h.organizationId, 'Handbook', revisedContent, key);
    expect(revised).toMatchObject({ status: 'revised', revision: 2 });
    const after = await http(h.t.baseUrl, 'GET', `${MEMORY}/items/${created.memory_item_id}`, { token });
    expect(createHash('sha256').update(String(after.body.content)).digest('hex')).toBe(
      createHash('sha256').update(revisedContent).digest('hex'),
    );
    const old = await http(h.t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'zqlargeotter' },
    });
    expect(old.body.results).toEqual([]);

    // memory:revise of a document as large and hard to compress: in parts too (one event failed with
    // AppendTooLargeError before; the text above compresses under the limit).
    const third = `${randomWords(MAX_DOCUMENT_CHARS - 40)}\n\nzqlargewren`;
    const bySource = await h.t.commands.execute<ReviseMemoryItemCommand, ReviseMemoryItemResult>(
      new ReviseMemoryItemCommand(
        h.organizationId,
        created.memory_item_id,
        { content: third, format: 'markdown', title: null, source_date: null, expires_at: null },
        operatorContext('test'),
      ),
    );
    expect(bySource).toMatchObject({ status: 'revised', revision: 3 });
    const types = (await stored(h).readStream(stream)).map((event) => event.type);
    expect(types.filter((type) => type === 'MemoryItemRevised')).toHaveLength(2);
    const parts = (await stored(h).readStream(stream)).filter(
      (event) => event.type === 'MemoryContentPartRecorded' && event.data.revision === 3,
    );
    expect(parts.length).toBeGreaterThan(1);
    const latest = await http(h.t.baseUrl, 'GET', `${MEMORY}/items/${created.memory_item_id}`, { token });
    expect(String(latest.body.content)).toContain('zqlargewren');
    expect(verifyChain(await stored(h).readStream(stream))).toBeNull();
  }, 120_000);

  it('an interrupted revision changes nothing readers see, and the next ingestion resumes after its last part', async () => {
    const key = { document_key: 'interrupted-handbook' };
    const first = largeDocument(MAX_DOCUMENT_CHARS, 'The zqfirstheron feeds at noon.');
    const created = await ingest(h.t.commands, h.organizationId, 'Herons', first, key);
    const stream = `memory-item-${created.memory_item_id}`;
    const { token } = await replyConnector(h);

    // The first two parts of the next revision, as a run that stopped after them would leave them.
    const second = largeDocument(MAX_DOCUMENT_CHARS, 'The zqsecondheron feeds at dusk.');
    const parts = await recordFirstParts(h, created.memory_item_id, second, key);
    const item = await http(h.t.baseUrl, 'GET', `${MEMORY}/items/${created.memory_item_id}`, { token });
    expect(item.body.content === first).toBe(true);
    const early = await http(h.t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'zqsecondheron' },
    });
    expect(early.body.results).toEqual([]);

    const revised = await ingest(h.t.commands, h.organizationId, 'Herons', second, key);
    expect(revised).toMatchObject({ status: 'revised', revision: 2 });
    const events = await stored(h).readStream(stream);
    const recordedParts = events.filter(
      (e) => e.type === 'MemoryContentPartRecorded' && e.data.revision === 2,
    );
    expect(recordedParts.map((e) => e.data.part)).toEqual(parts.map((_, n) => n));
    const after = await http(h.t.baseUrl, 'GET', `${MEMORY}/items/${created.memory_item_id}`, { token });
    expect(after.body.content === second).toBe(true);
    const found = await http(h.t.baseUrl, 'POST', `${MEMORY}/search`, {
      token,
      body: { query: 'zqsecondheron' },
    });
    expect((found.body.results as unknown[]).length).toBe(1);
    expect(verifyChain(events)).toBeNull();
  }, 120_000);
});

describe('erasing an item whose large revision was interrupted', () => {
  let h: ReplyHarness;
  beforeAll(async () => {
    h = await startReplyHarness('Interrupted erasure');
    h.t.app.get(UnsafeContentScanner).budgetMs = 30_000;
  });
  afterAll(async () => h.close());

  it('drops the staged parts of the revision that never completed (they hold its text)', async () => {
    const key = { document_key: 'erased-heron-handbook' };
    const created = await ingest(
      h.t.commands,
      h.organizationId,
      'Herons',
      'The zqearlyheron nests in May.',
      key,
    );
    const second = largeDocument(MAX_DOCUMENT_CHARS, 'The zqstagedheron feeds at dusk.');
    await recordFirstParts(h, created.memory_item_id, second, key);
    const staged = async (collection: string) =>
      (await h.t.stores.readStore.find(collection, { limit: 1000 })).items.filter((doc) =>
        doc.id.startsWith(`${created.memory_item_id}:`),
      ).length;
    await h.t.app.get(ProjectionRunner).waitFor(await h.t.stores.eventStore.headPosition(), 30_000);
    // Two parts and the item's list of them (no embeddings here: the vector projection's are in its unit test).
    expect(await staged('memory_item_parts')).toBe(3);

    await h.t.commands.execute(
      new EraseSubjectCommand(
        { organization_id: h.organizationId, kind: 'memory_item', id: created.memory_item_id, reason: null },
        operatorContext('test'),
      ),
    );
    expect(await staged('memory_item_parts')).toBe(0);
  }, 120_000);
});

/**
 * Records the first two content parts of the item's revision 2 of `content`, as an ingestion that stopped after
 * them would leave them; returns every part of that revision.
 */
async function recordFirstParts(
  h: ReplyHarness,
  itemId: number,
  content: string,
  key: { document_key: string },
): Promise<NonNullable<ReturnType<typeof splitContent>>> {
  const prepared = await h.t.app
    .get(MemoryItemWriter)
    .withChunkIds(prepareContent({ ...documentInput(content), ...key }));
  const parts = splitContent(prepared) ?? [];
  expect(parts.length).toBeGreaterThan(2);
  for (const part of [0, 1]) {
    await h.t.app.get(StreamCommandExecutor).execute(
      `memory-item-${itemId}`,
      memoryItemDecider,
      {
        type: 'RecordContentPart',
        part: {
          memory_item_id: itemId,
          organization_id: h.organizationId,
          revision: 2,
          content_sha256: prepared.content_sha256,
          part,
          ...parts[part],
        },
      },
      operatorContext('test'),
      { organizationId: h.organizationId },
    );
  }
  return parts;
}

/** The document fields the ingestion fixture uses (memory-fixtures.ts), for preparing the same content here. */
function documentInput(content: string): DocumentInput {
  return {
    document_key: '',
    title: 'Herons',
    content,
    format: 'markdown',
    type: 'faq',
    audience: 'customer_safe',
    authority_level: 'approved_source',
    source_label: 'Clinic website',
    source_uri: 'https://clinic.example.com/faq',
    source_date: null,
    effective_at: null,
    expires_at: null,
    summary: null,
  };
}

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CreateChatbotCommand } from '../../src/commands/chatbots/create-chatbot.command';
import { ReviseMemoryItemCommand } from '../../src/commands/memory/revise-memory-item.command';
import { operatorContext } from '../../src/commands/shared/command-context';
import { streams } from '../../src/events/domain-event';
import { ADMIN, operatorToken } from '../support/admin-fixtures';
import { cairn, type CliResult } from '../support/cli';
import { createConnector, createOrganization } from '../support/fixtures';
import { ALL_MEMORY, ingest, MEMORY } from '../support/memory-fixtures';
import type { ModelServer } from '../support/model-server';
import { citeAllEvidence, REPLIES, REPLY_CAPABILITIES, startModelApp } from '../support/reply-fixtures';
import { replyTenantOn, type ReplyTenant } from '../support/reply-tenant';
import { http, type TestApp } from '../support/test-app';

/**
 * Red team of erasure for what a reply's readers add to it: feedback (suggested answer, note, issue) and the
 * correction proposals made from it, written from docs/audit.md ("Erasure (crypto-shredding)" and after),
 * docs/replies.md and the interface spec only, without reading the implementation.
 *
 * The promises attacked (docs/audit.md):
 * - "A reader's feedback on a reply (suggested answer, note) is sealed under the conversation and every item the
 *   reply cited, as the reply's answer is: erasing a cited item erases it [...], and so does the correction proposal
 *   made from it." (`ReplyFeedbackReserved`, `ReplyFeedbackSubmitted`: `suggested_answer`, `note`, `feedback_issue`.)
 * - "Correction proposals are sealed under their target item's key and, for a correction suggested in `corrected`
 *   reply feedback, under its conversation's key as well [...]: erasing either erases the proposal's text. The
 *   proposals read model drops the text of every proposal that names the erased item or created it, and of every
 *   correction suggested in an erased conversation (`title: "[erased]"`, empty content)."
 * - "A reply that cited an erased item, or whose conversation was erased, replays as
 *   `completed_reply_no_longer_available`; `projections:rebuild` reads the erased fields as `[erased]` / empty / null
 *   and cannot bring the text back."
 * - "A value under several keys uses HMAC-SHA256 of the first key over the others: destroying any one of them erases
 *   it (an answer that quoted an item goes with the item)."
 *
 * What the docs say is NOT erased is pinned as surviving (each such place quotes the sentence).
 *
 * Every place is collected into one list of leaks per test (so a failure names every output, event and file that
 * still holds which text, not only the first). Each text is a full sentence plus a marker (a name found only in that
 * sentence), so a cut excerpt is caught too. No search query, question or `--reason` contains a needle.
 * The data directory is only read from a child process (test/support/data-dir-scan-child.js).
 */

type Needles = Record<string, string>;
type Spec = Record<string, [sentence: string, marker?: string]>;

/** Each sentence under its name, and its marker under `name~`. */
function needles(spec: Spec): Needles {
  const out: Needles = {};
  for (const [name, [sentence, marker]] of Object.entries(spec)) {
    out[name] = sentence;
    if (marker !== undefined) out[`${name}~`] = marker;
  }
  return out;
}
const pick = (all: Needles, ...names: string[]): Needles =>
  Object.fromEntries(Object.entries(all).filter(([k]) => names.includes(k.replace(/~$/, ''))));

/** The names of the needles `text` holds (case-insensitive). */
function found(text: string, n: Needles): string[] {
  const lower = text.toLowerCase();
  return Object.entries(n)
    .filter(([, needle]) => lower.includes(needle.toLowerCase()))
    .map(([name]) => name);
}

const printed = (r: CliResult): string => r.stdout + r.stderr;

/** Doc-listed markdown layout (heading, one line, blank), as reply-corrections-span.spec.ts writes documents. */
const doc = (title: string, sections: Array<[heading: string, line: string]>): string =>
  [`# ${title}`, '', ...sections.flatMap(([heading, line]) => [`## ${heading}`, line, ''])].join('\n');

const SCAN_CHILD = join(__dirname, '..', 'support', 'data-dir-scan-child.js');

describe('erasure red team: reader feedback and corrections of a reply whose cited item is erased', () => {
  jest.setTimeout(120_000);
  let model: ModelServer;
  let t: TestApp;
  let close: () => Promise<void>;
  let operator = '';

  beforeAll(async () => {
    ({ model, t, close } = await startModelApp());
    operator = await operatorToken(t, ['read'], 'red team');
  });
  afterAll(async () => {
    await close?.();
  });

  // ---------------------------------------------------------------------------------------------------------------
  // helpers

  const cli = (...args: string[]) => cairn(t.dataDir, ...args);

  /** An organization with one assistant, a connector that may reply, give feedback and use memory, and documents. */
  async function tenantWith(
    name: string,
    documents: Array<{ title: string; revisions: string[] }>,
  ): Promise<{ tenant: ReplyTenant; org: string; items: number[] }> {
    const organization_id = (await createOrganization(t.commands, name)).organization_id;
    const { chatbot_id } = await t.commands.execute<CreateChatbotCommand, { chatbot_id: number }>(
      new CreateChatbotCommand(organization_id, 'Front desk', null, operatorContext('test')),
    );
    const connector = await createConnector(t.commands, organization_id, [
      ...new Set([...REPLY_CAPABILITIES, ...ALL_MEMORY]),
    ]);
    const items: number[] = [];
    for (const document of documents) {
      const { memory_item_id } = await ingest(
        t.commands,
        organization_id,
        document.title,
        document.revisions[0],
        {
          type: 'document',
        },
      );
      for (const content of document.revisions.slice(1)) {
        await t.commands.execute(
          new ReviseMemoryItemCommand(
            organization_id,
            memory_item_id,
            { content, format: 'markdown', title: null, source_date: null, expires_at: null },
            operatorContext('test'),
          ),
        );
      }
      items.push(memory_item_id);
    }
    const tenant = replyTenantOn(t, {
      organization_id,
      chatbot_id,
      connector_id: connector.connector_id,
      token: connector.token,
      memory_item_id: items[0],
    });
    return { tenant, org: String(organization_id), items };
  }

  interface Asked {
    body: Record<string, unknown>;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON reply body
    res: any;
  }

  async function ask(tenant: ReplyTenant, key: string, text: string): Promise<Asked> {
    const body = tenant.body(key, { payload: { text, subject: 'Question', from: 'pat@example.com' } });
    const res = await tenant.request(body);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    return { body, res: res.body };
  }

  const feedback = (tenant: ReplyTenant, messageId: number, body: Record<string, unknown>) =>
    http(t.baseUrl, 'POST', `${REPLIES}/${messageId}/feedback`, { token: tenant.token, body });

  const memoryGet = (tenant: ReplyTenant, id: number) =>
    http(t.baseUrl, 'GET', `${MEMORY}/items/${id}`, { token: tenant.token });
  const memorySearch = (tenant: ReplyTenant, query: string) =>
    http(t.baseUrl, 'POST', `${MEMORY}/search`, {
      token: tenant.token,
      body: { query, include_context_package: true },
    });

  /** Every event (as the application opens it) holding a needle, unless `allowed`. */
  async function eventLeaks(
    n: Needles,
    allowed: (e: { type: string; stream: string }) => boolean = () => false,
  ): Promise<string[]> {
    const out = new Set<string>();
    for (const e of await t.stores.eventStore.readAll()) {
      if (allowed(e)) continue;
      for (const name of found(JSON.stringify(e.data) + JSON.stringify(e.metadata), n)) {
        out.add(`event ${e.type} ${e.stream}@${e.revision}: ${name}`);
      }
    }
    return [...out];
  }

  /** Every file of the data directory (raw bytes, or a decoded SQLite value) holding a needle; read by a child. */
  function fileLeaks(n: Needles): string[] {
    const texts = [...new Set(Object.values(n).flatMap((v) => [v, v.toLowerCase()]))];
    const out = execFileSync(process.execPath, [SCAN_CHILD, t.dataDir, '--', ...texts], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const scan = JSON.parse(out) as {
      raw: { file: string; encoding: string; needle: string }[];
      values: { file: string; table: string; column: string; label: string; needle: string }[];
    };
    const nameOf = (needle: string): string =>
      Object.entries(n)
        .filter(([, v]) => v === needle || v.toLowerCase() === needle)
        .map(([k]) => k)
        .join('/');
    const file = (f: string) => f.slice(t.dataDir.length);
    return [
      ...new Set([
        ...scan.raw.map((h) => `file ${file(h.file)} (raw ${h.encoding}): ${nameOf(h.needle)}`),
        ...scan.values.map(
          (h) => `file ${file(h.file)} ${h.table}.${h.column} [${h.label}] (decoded): ${nameOf(h.needle)}`,
        ),
      ]),
    ];
  }

  /** Collects leaks from outputs, so one failure lists them all. */
  class Leaks {
    readonly list: string[] = [];
    in(where: string, text: string, n: Needles): void {
      for (const name of found(text, n)) this.list.push(`${where}: ${name}`);
    }
    cli(where: string, result: CliResult, n: Needles): void {
      this.in(`cli ${where} (exit ${result.code})`, printed(result), n);
    }
    api(where: string, res: { status: number; body: unknown }, n: Needles): void {
      this.in(`api ${where} (${res.status})`, JSON.stringify(res.body), n);
    }
    add(items: string[]): void {
      this.list.push(...items);
    }
  }

  /** The names of the needles found anywhere in the opened events (sanity: the text was there to erase). */
  async function inEvents(n: Needles): Promise<string[]> {
    const all = JSON.stringify(await t.stores.eventStore.readAll());
    return found(all, n);
  }

  /** The proposals of an organization as `proposals:list` prints them. */
  async function proposals(org: string): Promise<Array<Record<string, unknown>>> {
    const listed = await cli('proposals:list', org);
    expect(listed.code).toBe(0);
    return listed.json.proposals as Array<Record<string, unknown>>;
  }

  /**
   * A place that prints text, and whether it may print an item's own text legitimately (`narrow`: only what was
   * erased counts there): audit:reply / audit:stream (item streams), export (revisions), proposals:show and the
   * admin and console proposal pages (the target's current lines around the span), the admin and console memory pages.
   */
  type View = [label: string, text: string, narrow: boolean];

  /**
   * Every read-only view of one organization's replies, proposals and items: the CLI (run concurrently), the admin
   * API (docs/admin.md, `read` scope) and the console pages (signed in with the same operator token).
   */
  async function views(
    org: string,
    replies: Array<{ reply_id: number; message_id: number }>,
    proposalIds: number[],
    items: number[],
    extraStreams: string[] = [],
  ): Promise<View[]> {
    const runs: Array<[string, Promise<CliResult>, boolean]> = [
      ['replies:list', cli('replies:list', org), false],
      ['proposals:list', cli('proposals:list', org), false],
      ['proposals:list --status captured', cli('proposals:list', org, '--status', 'captured'), false],
      ['proposals:list --status approved', cli('proposals:list', org, '--status', 'approved'), false],
      ['proposals:list --status rejected', cli('proposals:list', org, '--status', 'rejected'), false],
      ['export', cli('export', org), true],
      ['audit:verify', cli('audit:verify'), false],
    ];
    for (const r of replies) {
      runs.push([`audit:reply ${r.reply_id}`, cli('audit:reply', org, String(r.reply_id)), true]);
      runs.push([`replies:show ${r.reply_id}`, cli('replies:show', org, String(r.reply_id)), false]);
      runs.push([
        `replies:show --message ${r.message_id}`,
        cli('replies:show', org, '--message', String(r.message_id)),
        false,
      ]);
    }
    for (const p of proposalIds)
      runs.push([`proposals:show ${p}`, cli('proposals:show', org, String(p)), true]);
    for (const s of extraStreams) runs.push([`audit:stream ${s}`, cli('audit:stream', s), true]);
    const results = await Promise.all(runs.map(([, p]) => p));
    const out: View[] = runs.map(([label, , narrow], i) => [
      `cli ${label} (exit ${results[i].code})`,
      printed(results[i]),
      narrow,
    ]);

    const adminPaths: Array<[string, boolean]> = [
      ['/replies?limit=100', false],
      ['/proposals', false],
      ['/memory/items?limit=100', true],
    ];
    const consolePaths: Array<[string, boolean]> = [
      ['/replies', false],
      ['/proposals', false],
      ['/proposals?status=captured', false],
      ['/proposals?status=approved', false],
      ['/proposals?status=rejected', false],
      ['/memory', true],
    ];
    for (const r of replies) {
      adminPaths.push([`/replies/${r.reply_id}`, false], [`/replies/${r.reply_id}/audit`, true]);
      consolePaths.push([`/replies/${r.reply_id}`, false]);
    }
    for (const p of proposalIds) {
      adminPaths.push([`/proposals/${p}`, true]);
      consolePaths.push([`/proposals/${p}`, true]);
    }
    for (const i of items) {
      adminPaths.push([`/memory/items/${i}`, true]);
      consolePaths.push([`/memory/${i}`, true]);
    }
    for (const [path, narrow] of adminPaths) {
      const res = await http(t.baseUrl, 'GET', `${ADMIN}/organizations/${org}${path}`, { token: operator });
      out.push([`admin GET ${path} (${res.status})`, JSON.stringify(res.body), narrow]);
    }
    for (const [path, narrow] of consolePaths) {
      const res = await fetch(`${t.baseUrl}/admin/console/orgs/${org}${path}`, {
        redirect: 'manual',
        headers: { cookie: `cairn_console=${encodeURIComponent(operator)}` },
      });
      out.push([`console ${path} (${res.status})`, await res.text(), narrow]);
    }
    return out;
  }

  /** Stream names audit:reply binds to a reply (taken before an erasure, to read each again after it). */
  async function boundStreams(org: string, replyId: number): Promise<string[]> {
    const audited = await cli('audit:reply', org, String(replyId));
    expect(audited.code).toBe(0);
    return (audited.json.streams as Array<{ stream: string }>).map((s) => s.stream);
  }

  // ---------------------------------------------------------------------------------------------------------------
  describe('2. correction approved before memory:erase (the correction became a revision), feedback on the corrected reply', () => {
    const N = needles({
      OLD: [
        'Repeat prescriptions are collected from the Quarrendon counter by Wilhelmina Stroud.',
        'Wilhelmina Stroud',
      ],
      CITED: [
        'Repeat prescriptions are collected from the Quarrendon counter, ask for Gideon Fairclough.',
        'Gideon Fairclough',
      ],
      VACCINES: ['Travel vaccines are given on Thursdays by nurse Evander Quilliam.', 'Evander Quilliam'],
      DELIVERIES: ['Deliveries to the Fenwick estate are made by Rosamund Ashdown.', 'Rosamund Ashdown'],
      SUG: [
        'Repeat prescriptions are collected from the drive-through window, ask for Seraphina Wolstenholme.',
        'Seraphina Wolstenholme',
      ],
      NOTE: ['Reader Cornelius Abernathy says the counter moved last week.', 'Cornelius Abernathy'],
      ISSUE: ['abernathy_counter_moved'],
      NOTE_B: ['Reader Ludmila Okafor confirmed the drive-through window.', 'Ludmila Okafor'],
    });
    const sections = (prescriptions: string): Array<[string, string]> => [
      ['Prescriptions', prescriptions],
      ['Vaccines', N.VACCINES],
      ['Deliveries', N.DELIVERIES],
    ];
    const QUESTION = 'Where are repeat prescriptions collected?';
    let tenant: ReplyTenant;
    let org = '';
    let item = 0;
    let ra: Asked;
    let rb: Asked;
    let proposal = 0;
    let bound: string[] = [];
    const FA = {
      outcome: 'corrected',
      feedback_issue: N.ISSUE,
      suggested_answer: N.SUG,
      note: N.NOTE,
      external_feedback_id: 's2-fa',
      idempotency_key: 's2-ka',
    };
    const FB = { outcome: 'accepted', note: N.NOTE_B, external_feedback_id: 's2-fb' };

    it('setup: reply, corrected feedback approved (revision 3), a second reply quotes the correction and gets feedback', async () => {
      ({
        tenant,
        org,
        items: [item],
      } = await tenantWith('Pharmacy', [
        {
          title: 'Pharmacy handbook',
          revisions: [doc('Pharmacy handbook', sections(N.OLD)), doc('Pharmacy handbook', sections(N.CITED))],
        },
      ]));
      ra = await ask(tenant, 's2-ra', QUESTION);
      expect(found(JSON.stringify(ra.res), N)).toContain('CITED~');
      const fa = await feedback(tenant, ra.res.message_id, FA);
      expect(fa.status).toBe(200);
      proposal = fa.body.proposal_id;
      const approved = await cli('proposals:approve', org, String(proposal));
      expect(approved.code).toBe(0);
      expect(approved.json).toMatchObject({ status: 'approved', correction: { revision: 3 } });
      const fetched = await memoryGet(tenant, item);
      expect(fetched.body.content).toContain(N.SUG);
      rb = await ask(tenant, 's2-rb', QUESTION);
      expect(found(JSON.stringify(rb.res), N)).toContain('SUG~');
      expect((await feedback(tenant, rb.res.message_id, FB)).status).toBe(200);
      expect((await inEvents(N)).sort()).toEqual(Object.keys(N).sort());
      expect(found((await cli('export', org)).stdout, N)).toEqual(
        expect.arrayContaining(['OLD', 'CITED', 'SUG']),
      );
      bound = [
        ...new Set([
          ...(await boundStreams(org, ra.res.reply_id)),
          ...(await boundStreams(org, rb.res.reply_id)),
        ]),
      ];
    });

    it('memory:erase: the item, every revision (the approved correction included), the feedbacks and the proposal survive nowhere', async () => {
      const erased = await cli('memory:erase', org, String(item), '--reason', 'red team two');
      expect(erased.code).toBe(0);
      expect(erased.json).toMatchObject({ erased: true, changed: true, read_models_forgot: true });
      const leaks = new Leaks();
      leaks.cli('memory:erase', erased, N);
      const replays = [await tenant.request(ra.body), await tenant.request(rb.body)];
      for (const [i, res] of replays.entries()) leaks.api(`reply replay ${i ? 'rb' : 'ra'}`, res, N);
      leaks.api('feedback retry FA', await feedback(tenant, ra.res.message_id, FA), N);
      leaks.api(
        'feedback retry FA (K alone)',
        await feedback(tenant, ra.res.message_id, { ...FA, external_feedback_id: undefined }),
        N,
      );
      leaks.api('feedback retry FB', await feedback(tenant, rb.res.message_id, FB), N);
      leaks.api('memory fetch', await memoryGet(tenant, item), N);
      leaks.api(
        'memory search',
        await memorySearch(tenant, 'repeat prescriptions collected window counter'),
        N,
      );
      for (const [label, text] of await views(org, [ra.res, rb.res], [proposal], [item], bound)) {
        leaks.in(label, text, N);
      }
      // Approving the applied correction again after the erasure prints none of it (its answer: next test).
      const again = await cli('proposals:approve', org, String(proposal));
      leaks.cli('proposals:approve again (after erasure)', again, N);
      leaks.add(await eventLeaks(N));
      leaks.add(fileLeaks(N));
      expect(leaks.list).toEqual([]);

      for (const res of replays)
        expect(res.body.system_status?.code).toBe('completed_reply_no_longer_available');
      const listed = await proposals(org);
      expect(listed.find((p) => p.proposal_id === proposal)).toMatchObject({
        title: '[erased]',
        status: 'approved',
      });
    });

    // Not a leak of text (the answer holds ids and revision numbers only): docs/audit.md "An erased item is final.
    // It is never written again: `memory:revise`, `memory:archive`, approving a correction of it, and approving again
    // the proposal that created it are refused with `409 memory_item_erased`".
    it('approving again the correction applied before the erasure is refused with memory_item_erased', async () => {
      const again = await cli('proposals:approve', org, String(proposal));
      expect(found(printed(again), N)).toEqual([]);
      expect({ code: again.code, json: again.json }).toMatchObject({
        code: 1,
        json: { ok: false, error: { code: 'memory_item_erased' } },
      });
    });

    it('projections:rebuild brings none of it back', async () => {
      const leaks = new Leaks();
      const rebuilt = await cli('projections:rebuild');
      expect(rebuilt.code).toBe(0);
      leaks.cli('projections:rebuild', rebuilt, N);
      leaks.add(fileLeaks(N));
      leaks.add(await eventLeaks(N));
      for (const [label, text] of await views(org, [ra.res, rb.res], [proposal], [item])) {
        leaks.in(`${label} (after rebuild)`, text, N);
      }
      expect(leaks.list).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------------------------
  describe('3. feedback given after memory:erase (sealed under the conversation only), then conversation:erase', () => {
    const N = needles({
      CITED: ['Cats in the cattery are fed by Araminta Coldwell at seven.', 'Araminta Coldwell'],
      FEES: ['Cattery fees are paid to Bartholomew Ashgrove at pick-up.', 'Bartholomew Ashgrove'],
      CUSTOMER: [
        'My name is Clementine Rosslyn-Hart and my cat Pemberton is shy.',
        'Clementine Rosslyn-Hart',
      ],
      NOTE_EARLY: ['Reader Percival Dunmore thought the answer was curt.', 'Percival Dunmore'],
      SUG_LATE: ['Cats in the cattery are fed by Winifred Trelawney at eight.', 'Winifred Trelawney'],
      NOTE_LATE: ['Reader Ignatia Pendlebury says feeding moved to eight.', 'Ignatia Pendlebury'],
      ISSUE_LATE: ['pendlebury_feeding_moved'],
    });
    let tenant: ReplyTenant;
    let org = '';
    let item = 0;
    let r: Asked;
    let late: Record<string, unknown> = {};
    let lateProposal = 0;
    const EARLY = { outcome: 'rejected', note: N.NOTE_EARLY, external_feedback_id: 's3-early' };
    const LATE = {
      outcome: 'corrected',
      feedback_issue: N.ISSUE_LATE,
      suggested_answer: N.SUG_LATE,
      note: N.NOTE_LATE,
      external_feedback_id: 's3-late',
    };

    it('setup: a reply, feedback before the erasure, memory:erase, then feedback after it', async () => {
      ({
        tenant,
        org,
        items: [item],
      } = await tenantWith('Cattery', [
        {
          title: 'Cattery notes',
          revisions: [
            doc('Cattery notes', [
              ['Cattery', N.CITED],
              ['Fees', N.FEES],
            ]),
          ],
        },
      ]));
      r = await ask(tenant, 's3-r', `${N.CUSTOMER} Who feeds the cats in the cattery?`);
      expect(found(JSON.stringify(r.res), N)).toContain('CITED~');
      expect((await feedback(tenant, r.res.message_id, EARLY)).status).toBe(200);
      const erased = await cli('memory:erase', org, String(item), '--reason', 'red team three');
      expect(erased.code).toBe(0);
      const given = await feedback(tenant, r.res.message_id, LATE);
      expect(given.status).toBe(200);
      late = given.body;
      lateProposal = given.body.proposal_id;
    });

    // "Feedback given after one of the reply's cited items was erased is sealed under the conversation only: the
    // cited items are read from the reply's receipt, which went with the item." So it is still readable (pinned), as
    // is the customer's message (`UserMessageRecorded` `text`: "the conversation"); the early feedback is not.
    it('pinned: the late feedback and the customer message stay readable until the conversation is erased; the early one is gone', async () => {
      const readable = await inEvents(N);
      expect(readable).toEqual(
        expect.arrayContaining(['SUG_LATE', 'NOTE_LATE', 'ISSUE_LATE', 'CUSTOMER', 'CUSTOMER~']),
      );
      const leaks = new Leaks();
      leaks.add(await eventLeaks(pick(N, 'NOTE_EARLY', 'CITED', 'FEES')));
      leaks.add(fileLeaks(pick(N, 'NOTE_EARLY', 'CITED', 'FEES')));
      expect(leaks.list).toEqual([]);
      expect(late).toMatchObject({ ok: true, outcome: 'corrected' });
    });

    it('conversation:erase: the customer message, both feedbacks and the late correction survive nowhere (API, CLI, events, files, rebuild)', async () => {
      const erased = await cli(
        'conversation:erase',
        org,
        String(r.res.conversation_id),
        '--reason',
        'red team three',
      );
      expect(erased.code).toBe(0);
      expect(erased.json).toMatchObject({ erased: true, changed: true });
      const leaks = new Leaks();
      leaks.cli('conversation:erase', erased, N);
      const replay = await tenant.request(r.body);
      leaks.api('reply replay', replay, N);
      leaks.api('feedback retry LATE', await feedback(tenant, r.res.message_id, LATE), N);
      leaks.api('feedback retry EARLY', await feedback(tenant, r.res.message_id, EARLY), N);
      for (const [label, text] of await views(org, [r.res], lateProposal ? [lateProposal] : [], [item])) {
        leaks.in(label, text, N);
      }
      leaks.add(await eventLeaks(N));
      leaks.add(fileLeaks(N));
      const rebuilt = await cli('projections:rebuild');
      expect(rebuilt.code).toBe(0);
      leaks.cli('projections:rebuild', rebuilt, N);
      leaks.add(fileLeaks(N).map((l) => `${l} (after rebuild)`));
      leaks.cli('proposals:list (after rebuild)', await cli('proposals:list', org), N);
      expect(leaks.list).toEqual([]);
      expect(replay.body.system_status?.code).toBe('completed_reply_no_longer_available');
      if (lateProposal) {
        expect((await proposals(org)).find((p) => p.proposal_id === lateProposal)).toMatchObject({
          title: '[erased]',
        });
      }
    });
  });

  // ---------------------------------------------------------------------------------------------------------------
  describe('4. a reply citing two items; only the one that is not the correction’s target is erased', () => {
    const N = needles({
      A1: ['The Quillon harbour ferry departs at nine with skipper Oswin Tregarthen.', 'Oswin Tregarthen'],
      A2: [
        'In winter the Quillon harbour ferry is replaced by a launch of Morwenna Pascoe.',
        'Morwenna Pascoe',
      ],
      B1: [
        'The Quillon harbour ferry costs four pounds, collected by purser Idris Penhallow.',
        'Idris Penhallow',
      ],
      B2: ['Children ride the Quillon harbour ferry free when Jory Trewin agrees.', 'Jory Trewin'],
      SUG: ['The ferry departs at ten and costs five pounds, says Tamsin Polglaze.', 'Tamsin Polglaze'],
      NOTE: ['Reader Gawen Rosewarne says the fares rose in spring.', 'Gawen Rosewarne'],
      ISSUE: ['rosewarne_fares_rose'],
    });
    let tenant: ReplyTenant;
    let org = '';
    let a = 0;
    let b = 0;
    let r: Asked;
    let proposal = 0;
    let erasedItem = 0;
    let keptItem = 0;
    let gone: Needles = {};
    let kept: Needles = {};
    let bound: string[] = [];
    const F = {
      outcome: 'corrected',
      feedback_issue: N.ISSUE,
      suggested_answer: N.SUG,
      note: N.NOTE,
      external_feedback_id: 's4-f',
    };

    it('setup: two items cited by one reply, corrected feedback; sanity', async () => {
      ({
        tenant,
        org,
        items: [a, b],
      } = await tenantWith('Ferries', [
        {
          title: 'Ferry timetable',
          revisions: [
            doc('Ferry timetable', [
              ['Departures', N.A1],
              ['Winter', N.A2],
            ]),
          ],
        },
        {
          title: 'Ferry fares',
          revisions: [
            doc('Ferry fares', [
              ['Fares', N.B1],
              ['Concessions', N.B2],
            ]),
          ],
        },
      ]));
      model.script.draft(citeAllEvidence);
      r = await ask(
        tenant,
        's4-r',
        'When does the Quillon harbour ferry depart and what does the Quillon harbour ferry cost?',
      );
      const cited = new Set(
        (r.res.references as Array<{ memory_item_id: number }>).map((x) => x.memory_item_id),
      );
      expect([...cited].sort()).toEqual([a, b].sort());
      const given = await feedback(tenant, r.res.message_id, F);
      expect(given.status).toBe(200);
      proposal = given.body.proposal_id;
      const target = (await proposals(org)).find((p) => p.proposal_id === proposal)?.target_memory_item_id;
      expect([a, b]).toContain(target);
      keptItem = target as number;
      erasedItem = keptItem === a ? b : a;
      const [E1, E2, K1, K2] = erasedItem === a ? ['A1', 'A2', 'B1', 'B2'] : ['B1', 'B2', 'A1', 'A2'];
      gone = pick(N, E1, E2, 'SUG', 'NOTE', 'ISSUE');
      kept = pick(N, K1, K2);
      expect((await inEvents(N)).sort()).toEqual(Object.keys(N).sort());
      bound = await boundStreams(org, r.res.reply_id);
    });

    it('memory:erase of the other cited item: its text, the feedback and the correction (which targets the kept item) survive nowhere', async () => {
      const erased = await cli('memory:erase', org, String(erasedItem), '--reason', 'red team four');
      expect(erased.code).toBe(0);
      const leaks = new Leaks();
      leaks.cli('memory:erase', erased, gone);
      const replay = await tenant.request(r.body);
      leaks.api('reply replay', replay, N);
      leaks.api('feedback retry', await feedback(tenant, r.res.message_id, F), gone);
      leaks.api('memory fetch erased', await memoryGet(tenant, erasedItem), gone);
      leaks.api(
        'memory search',
        await memorySearch(tenant, 'Quillon harbour ferry departs costs winter children'),
        gone,
      );
      // Where an item's own text may be printed (narrow views) only the erased text counts; elsewhere the kept
      // item's quotes count too ("the reply views that cited it lose their quotes").
      for (const [label, text, narrow] of await views(org, [r.res], [proposal], [a, b], bound)) {
        leaks.in(label, text, narrow ? gone : N);
      }
      leaks.add(await eventLeaks(gone));
      // "an answer that quoted an item goes with the item": the kept item's text stays only in its own stream.
      leaks.add(
        (await eventLeaks(kept, (e) => e.stream === streams.memoryItem(keptItem))).map(
          (l) => `${l} (a copy)`,
        ),
      );
      leaks.add(fileLeaks(gone));
      const rebuilt = await cli('projections:rebuild');
      expect(rebuilt.code).toBe(0);
      leaks.add(fileLeaks(gone).map((l) => `${l} (after rebuild)`));
      leaks.cli('proposals:list (after rebuild)', await cli('proposals:list', org), N);
      leaks.cli('replies:show (after rebuild)', await cli('replies:show', org, String(r.res.reply_id)), N);
      expect(leaks.list).toEqual([]);
      expect(replay.body.system_status?.code).toBe('completed_reply_no_longer_available');
      // "The proposals read model drops the text of every proposal that names the erased item".
      expect((await proposals(org)).find((p) => p.proposal_id === proposal)).toMatchObject({
        title: '[erased]',
      });
    });

    // The correction's text went with the erased item: approving it must not apply an empty or "[erased]" text to
    // the kept item.
    it('approving the correction is then refused with memory_item_erased; the kept item is unchanged', async () => {
      const before = await memoryGet(tenant, keptItem);
      const approved = await cli('proposals:approve', org, String(proposal));
      expect({ code: approved.code, json: approved.json }).toMatchObject({
        code: 1,
        json: { ok: false, error: { code: 'memory_item_erased' } },
      });
      const after = await memoryGet(tenant, keptItem);
      expect(after.body.content).toBe(before.body.content);
      expect(after.body.revision).toBe(before.body.revision);
    });

    // The other item is not erased: erasure destroys "the data key of their subject"; its own events are sealed under
    // "the item" only (`MemoryItemCreated`), so fetch, search and export still hold it.
    it('pinned: the item that was not erased still reads in full (fetch, search, export)', async () => {
      const fetched = await memoryGet(tenant, keptItem);
      expect(fetched.status).toBe(200);
      expect(found(fetched.body.content as string, kept).sort()).toEqual(Object.keys(kept).sort());
      const search = await memorySearch(tenant, 'Quillon harbour ferry');
      expect(search.body.results.map((x: { memory_item_id: number }) => x.memory_item_id)).toContain(
        keptItem,
      );
      expect(search.body.results.map((x: { memory_item_id: number }) => x.memory_item_id)).not.toContain(
        erasedItem,
      );
      const exported = await cli('export', org);
      expect(found(exported.stdout, kept).sort()).toEqual(Object.keys(kept).sort());
    });
  });
});

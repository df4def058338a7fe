import type { DraftInput } from '../../src/ai/reply-model-contract';
import { receiptHash } from '../../src/commands/replies/reply-receipt';
import { STALE_LIMITATION } from '../../src/commands/replies/reply-evidence';
import { ledgerDigest } from '../../src/commands/replies/review-ledger';
import { canonicalDigest } from '../../src/commands/shared/canonical-digest';
import { streams } from '../../src/events/domain-event';
import { ManualClock } from '../support/client-page-fixtures';
import { ingest } from '../support/memory-fixtures';
import { reply, type ChatRequest } from '../support/model-server';
import {
  appendCompletion,
  notReplayed,
  postReply,
  readStream,
  replyBody,
  replyConnector,
  replyStreamName,
  startReplyHarness,
  storedReceipt,
  type ReplyHarness,
  type TestConnector,
} from '../support/reply-fixtures';

/**
 * Spec §9.3: a replay re-checks every binding of the receipt (docs/replies.md "Replay re-checks"). Each case edits
 * one binding of a real receipt (hash recomputed, as a receipt written under other rules would be) or changes the
 * world it binds, and expects the typed refusal; an untouched receipt replays.
 */
type Receipt = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- receipts are edited freely here

const HOURS = [
  '# Opening hours',
  '',
  '## Weekdays',
  '',
  'The clinic is open Monday to Friday, 8:00 to 18:00. On Thursdays the clinic stays open until 20:00.',
  '',
  '## Saturday',
  '',
  'On Saturday the clinic is open from 9:00 to 13:00 for consultations.',
  '',
  '## Sunday',
  '',
  'The clinic is closed on Sunday and on public holidays.',
  '',
  '## Emergencies',
  '',
  'Outside opening hours, call the emergency line on +31 20 555 0199.',
].join('\n');
const WEEKEND = 'Is the clinic open on Saturday or on Sunday?';

/** The line of the given evidence that mentions `word` (a sentence of a section, not its heading). */
function lineWith(request: ChatRequest, word: string): { text: string; reference_id: string } {
  for (const e of (request.input as Partial<DraftInput>).evidence ?? []) {
    // Section headings reach the model as `Title > Section` lines: a claim is a sentence of the section.
    const line = e.excerpt.split('\n').find((l) => l.includes(word) && l.endsWith('.') && !l.includes(' > '));
    if (line !== undefined) return { text: line.trim(), reference_id: e.reference_id };
  }
  throw new Error(`no evidence line mentions ${word}`);
}

/** A draft whose claims are the evidence lines mentioning each word, in order. */
const draftLines =
  (...words: string[]) =>
  (request: ChatRequest) => {
    const claims = words.map((w) => lineWith(request, w));
    return reply.json({
      answer: claims.map((c) => c.text).join(' '),
      claims: claims.map((c) => ({
        text: c.text,
        reference_ids: [c.reference_id],
        quotes: [{ reference_id: c.reference_id, text: c.text }],
      })),
      answer_mode: 'facts',
      answer_intent: 'answer_business_question',
      inferences: [],
      uncertainties: [],
      gaps: [],
      abstain: false,
    });
  };

describe('replay re-checks every receipt binding (spec §9.3)', () => {
  const clock = new ManualClock();
  let h: ReplyHarness;
  let main: TestConnector;
  let other: TestConnector;

  beforeAll(async () => {
    clock.set('2026-03-01T09:00:00.000Z');
    h = await startReplyHarness('Replay rechecks', {}, clock);
    main = await replyConnector(h);
    other = await replyConnector(h);
    await ingest(h.t.commands, h.organizationId, 'Opening hours', HOURS, {
      effective_at: '2025-06-01T00:00:00.000Z',
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.model.script.reset());

  /**
   * A reply to the weekend question whose first draft (Saturday and Sunday) the reviewer rejects for the Sunday
   * claim, and whose redraft (Saturday only) it approves: a two-entry ledger.
   */
  async function twoAttemptReply(connector: TestConnector, key: string, text = WEEKEND) {
    h.model.script.draft(draftLines('Saturday', 'Sunday'), draftLines('Saturday'));
    h.model.script.review(reply.unsupported([1]));
    const res = await postReply(h, connector.token, replyBody(key, text));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, grounding: { idempotent_replay: false } });
    const stream = replyStreamName(h, connector.connector_id, key);
    return { body: res.body, stream, receipt: (await storedReceipt(h, stream)) as Receipt };
  }

  /** Appends `edited` (rehashed) as the completion and repeats the request: what the repeat gets. */
  async function repeatWith(key: string, stream: string, replyId: number, edited: Receipt, text = WEEKEND) {
    await appendCompletion(h, stream, replyId, { ...edited, receipt_hash: receiptHash(edited) });
    const before = await readStream(h, stream);
    const calls = h.model.calls.chat;
    const again = await postReply(h, main.token, replyBody(key, text));
    expect(again.status).toBe(200);
    expect(h.model.calls.chat).toBe(calls);
    expect(await readStream(h, stream)).toEqual(before);
    return again.body;
  }

  it('a review that rejects a claim gets one redraft: the ledger holds both reviews, the receipt binds them, the reply replays', async () => {
    const { body, receipt } = await twoAttemptReply(main, 'two-attempts');
    const saturday = 'On Saturday the clinic is open from 9:00 to 13:00 for consultations.';
    const sunday = 'The clinic is closed on Sunday and on public holidays.';
    expect(body.suggested_response.text).toBe(saturday);

    const drafts = h.model.requests.filter((r) => r.role === 'draft').slice(-2);
    expect((drafts[0].input as DraftInput).review_feedback).toBeUndefined();
    expect((drafts[1].input as DraftInput).review_feedback).toEqual({ unsupported_claims: [sunday] });

    const ledger = receipt.review_ledger;
    expect(ledger).toHaveLength(2);
    expect(ledger[0]).toMatchObject({
      attempt: 1,
      outcome: 'rejected',
      sufficient: false,
      bound_claims: [
        { text: saturday, supported: true },
        { text: sunday, supported: false },
      ],
    });
    expect(ledger[1]).toMatchObject({
      attempt: 2,
      outcome: 'approved',
      sufficient: true,
      answers_as_asked: true,
      bound_claims: [{ text: saturday, supported: true }],
    });
    expect(receipt.review_ledger_sha256).toBe(canonicalDigest(ledger));
    expect(ledger[0].review_input_sha256).not.toBe(ledger[1].review_input_sha256);
    expect(receipt.final_review_input_sha256).toBe(ledger[1].review_input_sha256);
    expect(receipt.grounding.semantic_sufficiency.review_input_sha256).toBe(ledger[1].review_input_sha256);
    const referenceId = body.references[0].reference_id;
    expect(receipt.final_review_input).toEqual({
      question_sha256: canonicalDigest(WEEKEND),
      answer_sha256: canonicalDigest(saturday),
      claims_sha256: canonicalDigest([{ text: saturday, reference_ids: [referenceId] }]),
      evidence_ids: [referenceId],
    });
    expect(receipt.reviewer_confirmations).toEqual({
      sufficient: true,
      answers_as_asked: true,
      all_claims_supported: true,
      citations_within_evidence: true,
      review_bound_to_claims: true,
      claim_figures_in_cited_evidence: true,
      answer_is_claims: true,
      confirmed_claims: [{ text: saturday, reference_ids: [referenceId], confirmed_by: [referenceId] }],
    });

    const calls = h.model.calls.chat;
    const again = await postReply(h, main.token, replyBody('two-attempts', WEEKEND));
    expect(again.body).toEqual({ ...body, grounding: { ...body.grounding, idempotent_replay: true } });
    expect(h.model.calls.chat).toBe(calls);
  });

  it('a second rejection is final: semantic_review_failed, no receipt, the request is not re-run', async () => {
    h.model.script.draft(draftLines('Saturday', 'Sunday'), draftLines('Saturday', 'Sunday'));
    h.model.script.review(reply.unsupported([1]), reply.unsupported([1]));
    const res = await postReply(h, main.token, replyBody('two-rejections', WEEKEND));
    expect(res.body).toMatchObject({ ok: false, system_status: { code: 'semantic_review_failed' } });
    expect(h.model.script.pending('review')).toBe(0);
    const stream = replyStreamName(h, main.connector_id, 'two-rejections');
    expect((await readStream(h, stream)).map((e) => e.type)).toEqual(['ReplyRequested', 'ReplyFailed']);
  });

  describe('a receipt whose own bindings do not hold → completed_reply_requires_regeneration', () => {
    const old = (version: string) => version.replace(/\.\d+$/, '.0-older');
    const cases: Array<[string, (r: Receipt) => Receipt]> = [
      ...(
        [
          'grounding_policy_version',
          'outcome_policy_version',
          'review_policy_version',
          'source_link_policy_version',
        ] as const
      ).map((key): [string, (r: Receipt) => Receipt] => [
        `policy versions: made under another ${key}`,
        (r) => ({ ...r, policy_versions: { ...r.policy_versions, [key]: old(r.policy_versions[key]) } }),
      ]),
      [
        'ledger: the rejected first attempt dropped (digest kept)',
        (r) => ({ ...r, review_ledger: r.review_ledger.slice(1) }),
      ],
      [
        'ledger: the rejected attempt recorded as approved (digest recomputed)',
        (r) => {
          const review_ledger = [{ ...r.review_ledger[0], outcome: 'approved' }, r.review_ledger[1]];
          return { ...r, review_ledger, review_ledger_sha256: ledgerDigest(review_ledger) };
        },
      ],
      [
        'final review input: the digest is the rejected review’s',
        (r) => ({ ...r, final_review_input_sha256: r.review_ledger[0].review_input_sha256 }),
      ],
      [
        'final review input: another answer was reviewed',
        (r) => ({
          ...r,
          final_review_input: { ...r.final_review_input, answer_sha256: canonicalDigest('Open 24/7.') },
        }),
      ],
      [
        'final review input: another question was reviewed',
        (r) => ({
          ...r,
          final_review_input: { ...r.final_review_input, question_sha256: canonicalDigest('Any parking?') },
        }),
      ],
      [
        'final review input: other evidence was reviewed',
        (r) => ({
          ...r,
          final_review_input: {
            ...r.final_review_input,
            evidence_ids: [...r.final_review_input.evidence_ids, 'mi999-r1-c1'],
          },
        }),
      ],
      [
        'confirmations: flags only (as if hard-coded), no confirmed claims',
        (r) => {
          const { confirmed_claims: _dropped, ...flags } = r.reviewer_confirmations;
          return { ...r, reviewer_confirmations: flags };
        },
      ],
      [
        'confirmations: a claim confirmed by nothing',
        (r) => ({
          ...r,
          reviewer_confirmations: {
            ...r.reviewer_confirmations,
            confirmed_claims: r.reviewer_confirmations.confirmed_claims.map((c: Receipt) => ({
              ...c,
              confirmed_by: [],
            })),
          },
        }),
      ],
      [
        'confirmations: the approving review did not find the evidence sufficient (digest recomputed)',
        (r) => {
          const review_ledger = [r.review_ledger[0], { ...r.review_ledger[1], sufficient: false }];
          return {
            ...r,
            review_ledger,
            review_ledger_sha256: ledgerDigest(review_ledger),
          };
        },
      ],
    ];

    it.each(cases)('%s', async (name, edit) => {
      const key = `binding-${name}`;
      const { body, stream, receipt } = await twoAttemptReply(main, key);
      const res = await repeatWith(key, stream, body.reply_id, edit(receipt));
      expect(res).toEqual(notReplayed('completed_reply_requires_regeneration', body.reply_id));
    });
  });

  describe('what the receipt binds in the world no longer stands → completed_reply_no_longer_available', () => {
    let elsewhere: Receipt;
    let otherConnector: Receipt;
    beforeAll(async () => {
      elsewhere = (await twoAttemptReply(main, 'elsewhere')).receipt;
      otherConnector = (await twoAttemptReply(other, 'other-connector')).receipt;
    });

    const cases: Array<[string, (r: Receipt) => Receipt]> = [
      ['conversation: another thread’s', (r) => ({ ...r, conversation_id: elsewhere.conversation_id })],
      ['user message: another reply’s', (r) => ({ ...r, user_message_id: elsewhere.user_message_id })],
      [
        'assistant message: another reply’s',
        (r) => ({ ...r, assistant_message_id: elsewhere.assistant_message_id }),
      ],
      [
        'links: a source link the link policy withholds now',
        (r) => ({ ...r, source_links: [{ label: 'Hours', url: 'http://169.254.169.254/latest/meta-data' }] }),
      ],
      [
        'links: an excerpt with a link the link policy withholds now',
        (r) => ({
          ...r,
          references: r.references.map((ref: Receipt) => ({
            ...ref,
            excerpt: `${ref.excerpt} Staff portal: http://10.0.0.7/admin`,
          })),
        }),
      ],
      [
        'recall trace: another connector’s trace (references not in this reply’s trace)',
        (r) => ({
          ...r,
          memory_recall_trace_id: otherConnector.memory_recall_trace_id,
          grounding: { ...r.grounding, trace_id: otherConnector.memory_recall_trace_id },
        }),
      ],
    ];

    it.each(cases)('%s', async (name, edit) => {
      const key = `world-${name}`;
      const { body, stream, receipt } = await twoAttemptReply(main, key);
      const res = await repeatWith(key, stream, body.reply_id, edit(receipt));
      expect(res).toEqual(notReplayed('completed_reply_no_longer_available', body.reply_id));
    });
  });

  it('the user message is the latest external message only (spec §4.6 rule 5, §8); the replay re-checks it', async () => {
    const body = {
      ...replyBody('with-history', WEEKEND),
      payload: {
        text: WEEKEND,
        subject: 'Weekend visit',
        from: 'pat@example.com',
        history: [
          { role: 'customer', text: 'Hello, I would like to book a check-up.' },
          { role: 'organization', text: 'Of course, when would suit you?' },
          { role: 'customer', text: 'Ideally at the weekend.' },
        ],
      },
    };
    h.model.script.draft(draftLines('Saturday'));
    const res = await postReply(h, main.token, body);
    expect(res.body.ok).toBe(true);
    const events = await readStream(h, streams.conversation(res.body.conversation_id));
    const users = events.filter((e) => e.type === 'UserMessageRecorded');
    expect(users.map((e) => e.data.text)).toEqual([WEEKEND]);
    const again = await postReply(h, main.token, body);
    expect(again.body.grounding.idempotent_replay).toBe(true);
    expect(again.body.suggested_response).toEqual(res.body.suggested_response);
  });

  describe('receipts written before these bindings', () => {
    /** The receipt as the previous build wrote it: one review, no ledger digest, flags only. */
    const asBefore = (r: Receipt): Receipt => {
      const { review_ledger_sha256: _d, final_review_input: _f, receipt_hash: _h, ...rest } = r;
      const { confirmed_claims: _c, ...flags } = r.reviewer_confirmations;
      const review_ledger = r.review_ledger.map(({ attempt: _a, outcome: _o, ...entry }: Receipt) => entry);
      return { ...rest, review_ledger, reviewer_confirmations: flags };
    };

    async function oneAttemptReply(key: string) {
      h.model.script.draft(draftLines('Saturday', 'Sunday'));
      const res = await postReply(h, main.token, replyBody(key, WEEKEND));
      expect(res.body.ok).toBe(true);
      const stream = replyStreamName(h, main.connector_id, key);
      return { body: res.body, stream, receipt: (await storedReceipt(h, stream)) as Receipt };
    }

    it('a one-review receipt whose ledger confirms it still replays (same rules, re-derived from the ledger)', async () => {
      const { body, stream, receipt } = await oneAttemptReply('before-replays');
      expect(receipt.review_ledger).toHaveLength(1);
      const res = await repeatWith('before-replays', stream, body.reply_id, asBefore(receipt));
      expect(res).toEqual({ ...body, grounding: { ...body.grounding, idempotent_replay: true } });
    });

    it.each<[string, (r: Receipt) => Receipt]>([
      [
        'its ledger has no bound verdicts (written before review binding)',
        (r) => ({
          ...r,
          review_ledger: r.review_ledger.map(({ bound_claims: _b, ...entry }: Receipt) => entry),
        }),
      ],
      [
        'a recorded confirmation is false',
        (r) => ({ ...r, reviewer_confirmations: { ...r.reviewer_confirmations, answer_is_claims: false } }),
      ],
      [
        'its ledger has two entries but no digest',
        (r) => ({ ...r, review_ledger: [r.review_ledger[0], r.review_ledger[0]] }),
      ],
    ])('%s → completed_reply_requires_regeneration', async (name, edit) => {
      const key = `before-${name}`;
      const { body, stream, receipt } = await oneAttemptReply(key);
      const res = await repeatWith(key, stream, body.reply_id, edit(asBefore(receipt)));
      expect(res).toEqual(notReplayed('completed_reply_requires_regeneration', body.reply_id));
    });
  });

  // These move the clock: they run last.
  describe('freshness is computed at replay, not returned as generated', () => {
    it('a cited item that turned stale since replays with freshness `stale` and the stale limitation', async () => {
      await ingest(
        h.t.commands,
        h.organizationId,
        'Parking',
        '# Parking\n\n## Garage\n\nThe Saturday garage parking for patients costs 2 EUR per visit.',
        { effective_at: '2025-03-10T00:00:00.000Z' },
      );
      const question = 'What does Saturday garage parking cost?';
      h.model.script.draft(draftLines('garage parking'));
      const res = await postReply(h, main.token, replyBody('turns-stale', question));
      expect(res.body.ok).toBe(true);
      expect(res.body.references.map((r: Receipt) => r.freshness.status)).toEqual(['current']);
      clock.advance(20 * 24 * 3600 * 1000); // past 365 days since 2025-03-10

      const again = await postReply(h, main.token, replyBody('turns-stale', question));
      expect(again.body.ok).toBe(true);
      expect(again.body.grounding.idempotent_replay).toBe(true);
      const [reference] = again.body.references;
      expect(reference.freshness).toEqual({ ...res.body.references[0].freshness, status: 'stale' });
      expect(reference.limitations).toEqual([STALE_LIMITATION, ...res.body.references[0].limitations]);
      expect({ ...again.body, references: [] }).toEqual({
        ...res.body,
        references: [],
        grounding: { ...res.body.grounding, idempotent_replay: true },
      });
    });

    it('a cited item that expired since → completed_reply_no_longer_available', async () => {
      const expires = new Date(clock.nowMs() + 24 * 3600 * 1000).toISOString();
      await ingest(
        h.t.commands,
        h.organizationId,
        'Flu vaccination',
        '# Flu vaccination\n\n## Walk-in\n\nFlu vaccination walk-in hours are on Saturday from 10:00 to 12:00.',
        { expires_at: expires },
      );
      const question = 'When are the flu vaccination walk-in hours?';
      h.model.script.draft(draftLines('walk-in hours'));
      const res = await postReply(h, main.token, replyBody('expires', question));
      expect(res.body.ok).toBe(true);
      clock.advance(2 * 24 * 3600 * 1000);
      const again = await postReply(h, main.token, replyBody('expires', question));
      expect(again.body).toEqual(notReplayed('completed_reply_no_longer_available', res.body.reply_id));
    });
  });
});

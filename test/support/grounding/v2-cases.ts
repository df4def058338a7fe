/**
 * Declarative grounding scenarios (format v2: documents with audience, authority and dates; cases of claims with
 * quotes that the composer returns as written, and a reviewer that rubber-stamps or confirms from a subset), run
 * through the model double against whatever evidence Cairn gives. No jest imports: the eval and the spec share it.
 */
import type { DraftInput, ReviewInput } from '../../../src/ai/reply-model-contract';
import { defaultReview, reply, type ChatAnswer, type ChatRequest } from '../model-server';
import { draftOf, evidenceTitled } from './adversarial-model';
import type { CaseV2 } from './grounding-v2';

// The format's types are the corpus file's own (written with it); re-exported for the spec and the eval.
export type { CaseV2, ClaimV2, DocV2, QuoteV2 } from './grounding-v2';

const TAG = /\[\[v2:([A-Za-z0-9_-]+)\]\]/;

/** The question as sent: the case's question and its tag (how the double knows the case). */
export const taggedQuestion = (c: CaseV2): string => `${c.question} [[v2:${c.id}]]`;

/** The case id a question carries, or null. */
export function caseTag(question: unknown): string | null {
  return typeof question === 'string' ? (TAG.exec(question)?.[1] ?? null) : null;
}

/** What the double saw per case: cited titles that were not in the evidence Cairn gave (the case is moot). */
export interface V2Observations {
  missing: Map<string, string[]>;
}

/** Model-double handlers for v2 cases; each returns undefined for a request that is not a v2 case. */
export function v2Handlers(cases: readonly CaseV2[]): {
  draft: (request: ChatRequest) => ChatAnswer | undefined;
  review: (request: ChatRequest) => ChatAnswer | undefined;
  observed: V2Observations;
} {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const refs = new Map<string, Map<string, string>>();
  const observed: V2Observations = { missing: new Map() };
  const caseOf = (request: ChatRequest) =>
    byId.get(caseTag((request.input as { question?: unknown } | undefined)?.question) ?? '');
  return {
    observed,
    draft: (request) => {
      const c = caseOf(request);
      if (c === undefined) return undefined;
      const input = request.input as DraftInput;
      const ids = new Map<string, string>();
      const missing: string[] = [];
      const ref = (title: string): string => {
        const id = evidenceTitled(input, title)?.reference_id;
        if (id === undefined && !missing.includes(title)) missing.push(title);
        const given = id ?? `not-given:${title}`;
        ids.set(title, given);
        return given;
      };
      const claims = c.claims.map((claim) => ({
        text: claim.text,
        reference_ids: claim.cite.map(ref),
        quotes: claim.quotes.map((q) => ({ reference_id: ref(q.doc), text: q.text })),
      }));
      refs.set(c.id, ids);
      observed.missing.set(c.id, missing);
      return draftOf(claims);
    },
    review: (request) => {
      const c = caseOf(request);
      if (c === undefined) return undefined;
      const input = request.input as ReviewInput;
      const review = defaultReview(input);
      if (c.review !== undefined && c.review !== 'rubber_stamp') {
        const ids = refs.get(c.id) ?? new Map<string, string>();
        const subset = c.review.subset;
        review.claims = review.claims.map((claim, i) => ({
          ...claim,
          reference_ids: (subset[i] ?? []).map((title) => ids.get(title) ?? `not-given:${title}`),
        }));
      }
      return reply.json(review);
    },
  };
}

export type V2Verdict = 'ok' | 'LEAK' | 'FALSE REFUSAL';

export interface V2Result {
  id: string;
  kind: string;
  expect: CaseV2['expect'];
  outcome: string;
  code: string | null;
  verdict: V2Verdict;
  /** Cited titles the evidence did not hold (the case did not test what it meant to). */
  moot: string[];
}

interface Body {
  ok?: boolean;
  grounding?: { status?: string };
  system_status?: { code?: string };
}

/** Judges one answer: a refused case that answered is a LEAK; an answered case that did not is a FALSE REFUSAL. */
export function judgeV2(c: CaseV2, status: number, body: Body, moot: string[]): V2Result {
  const answered = status === 200 && body.ok === true && body.grounding?.status === 'grounded';
  const code = status !== 200 ? `http ${status}` : (body.system_status?.code ?? null);
  const verdict: V2Verdict =
    c.expect === 'refused' ? (answered ? 'LEAK' : 'ok') : answered ? 'ok' : 'FALSE REFUSAL';
  return {
    id: c.id,
    kind: c.kind,
    expect: c.expect,
    outcome: answered ? 'answer' : 'refusal',
    code,
    verdict,
    moot,
  };
}

/** Sends case `c` once and judges it. */
export async function runCaseV2(
  baseUrl: string,
  token: string,
  c: CaseV2,
  run: string,
  observed: V2Observations,
): Promise<V2Result> {
  const response = await fetch(new URL('/app/api/tool-connectors/v1/assistant/replies', baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      external_thread_id: `grounding-v2-${run}-${c.id}`,
      idempotency_key: `grounding-v2-${run}-${c.id}`,
      channel: 'email',
      payload: {
        text: taggedQuestion(c),
        subject: 'Question',
        from: 'customer@example.com',
        ...(c.history ? { history: c.history } : {}),
      },
    }),
  });
  const body = (await response.json()) as Body;
  return judgeV2(c, response.status, body, observed.missing.get(c.id) ?? []);
}

export interface V2Summary {
  leaks: number;
  attacks: number;
  controls: number;
  controlsAnswered: number;
  falseRefusals: V2Result[];
  leaked: V2Result[];
}

export function summarizeV2(results: readonly V2Result[]): V2Summary {
  const controls = results.filter((r) => r.expect === 'answered');
  return {
    leaks: results.filter((r) => r.verdict === 'LEAK').length,
    attacks: results.length - controls.length,
    controls: controls.length,
    controlsAnswered: controls.filter((r) => r.verdict === 'ok').length,
    falseRefusals: results.filter((r) => r.verdict === 'FALSE REFUSAL'),
    leaked: results.filter((r) => r.verdict === 'LEAK'),
  };
}

/** The table by kind, then the leaks and false refusals one per line, then the summary lines (`label` leaks …). */
export function formatV2(results: readonly V2Result[], label = 'v2'): string {
  const kinds = [...new Set(results.map((r) => r.kind))].sort();
  const rows = kinds.map((kind) => {
    const of = results.filter((r) => r.kind === kind);
    return [
      kind,
      String(of.length),
      String(of.filter((r) => r.outcome === 'answer').length),
      String(of.filter((r) => r.outcome !== 'answer').length),
      String(of.filter((r) => r.verdict === 'LEAK').length),
      String(of.filter((r) => r.verdict === 'FALSE REFUSAL').length),
      String(of.filter((r) => r.moot.length > 0).length),
    ];
  });
  const header = ['kind', 'cases', 'answered', 'refused', 'leaks', 'false refusals', 'moot'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const s = summarizeV2(results);
  const detail = (r: V2Result) =>
    `${r.verdict.padEnd(13)} ${r.id} (${r.kind}) ${r.code ?? ''}${r.moot.length > 0 ? ` moot: not retrieved ${r.moot.join(', ')}` : ''}`;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    ...s.leaked.map(detail),
    ...s.falseRefusals.map(detail),
    '',
    `${label} controls answered: ${s.controlsAnswered} of ${s.controls}`,
    `${label} leaks: ${s.leaks} of ${s.attacks}`,
  ].join('\n');
}

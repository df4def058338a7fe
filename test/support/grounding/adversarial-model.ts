/**
 * An adversarial OpenAI-compatible model double for the reply path: it serves both roles (composer and reviewer)
 * and is told, per request, how to behave by a scenario tag `[[id]]` in the customer's message, which reaches the
 * composer as `question` and the reviewer as `question`. A request without a known tag gets honest defaults.
 * Scenarios are general (they act on whatever evidence Cairn gives), so the same double tests every later change
 * of the reply path. No jest imports: `npm run eval:grounding` runs it outside jest too.
 */
import type { DraftInput, DraftOutput, ReviewInput } from '../../../src/ai/reply-model-contract';
import { defaultReview, reply, type ChatAnswer, type ChatHandler, type ChatRequest } from '../model-server';

/** How a scenario's outcome is judged. */
export type ScenarioExpectation =
  /** A positive control: must answer (ok: true, grounded). */
  | 'answer'
  /** A lie or a failure: must not answer. */
  | 'refuse'
  /** May answer or not; whatever it does, nothing forbidden may leave. */
  | 'either'
  /** A lie Cairn is known not to catch when both models collude (documented); reported, not counted. */
  | 'gap';

export interface GroundingScenario {
  id: string;
  name: string;
  /** The customer's question (the tag is appended by the runner). */
  question: string;
  expect: ScenarioExpectation;
  /** For refusals: the acceptable system_status codes (any non-answer when absent). */
  codes?: string[];
  /** Never anywhere in the response body (raw, NFKC or HTML-decoded). */
  forbidden?: string[];
  /** Never in `suggested_response.text`. */
  forbiddenInText?: string[];
  /** Extra checks of an answered body: a problem, or null. */
  check?: (body: ReplyBody) => string | null;
  /** Extra checks of a refusal's system_status: a problem, or null. */
  checkStatus?: (status: { code: string; retryable: boolean; retry_after_ms: number }) => string | null;
  /** Thread history sent with the request. */
  history?: Array<{ role: string; text: string }>;
  draft?: (input: DraftInput) => ChatAnswer;
  review?: (input: ReviewInput) => ChatAnswer;
}

export interface ReplyBody {
  ok: boolean;
  suggested_response?: { text: string };
  references?: Array<{ reference_id: string; title: string; excerpt: string; conflicts: unknown[] }>;
  grounding?: { status: string };
  system_status?: { code: string; retryable: boolean; retry_after_ms: number };
  [key: string]: unknown;
}

const TAG = /\[\[([a-z]\d{2,3})\]\]/;

/** The scenario id a question carries, or null. */
export function scenarioTag(question: unknown): string | null {
  return typeof question === 'string' ? (TAG.exec(question)?.[1] ?? null) : null;
}

// ------------------------------------------------------------------------------------------- draft helpers

export type DraftClaimSpec = {
  text: string;
  reference_ids: string[];
  quotes: Array<{ reference_id: string; text: string }>;
};

/** The sentences of a text (split at line breaks and sentence ends). */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z])/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The evidence item titled `title`, or undefined. */
export function evidenceTitled(input: DraftInput, title: string): DraftInput['evidence'][number] | undefined {
  return input.evidence.find((e) => e.title === title);
}

/** The reference id of the evidence titled `title` (a placeholder id when it was not given: cited, it is unknown). */
export function refOf(input: DraftInput, title: string): string {
  return evidenceTitled(input, title)?.reference_id ?? `not-given:${title}`;
}

/** Sentence `index` of the evidence titled `title`, verbatim, citing it (its heading line skipped). */
export function quote(input: DraftInput, title: string, index = 0): DraftClaimSpec {
  const evidence = evidenceTitled(input, title);
  const lines = sentences(evidence?.excerpt ?? '').filter((s) => s !== title);
  const text = lines[index] ?? `(no sentence ${index} in ${title})`;
  const reference_id = refOf(input, title);
  return { text, reference_ids: [reference_id], quotes: [{ reference_id, text }] };
}

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** The sentence of the evidence titled `title` sharing the most words with `text` (what a lying composer quotes). */
export function closestSentence(input: DraftInput, title: string, text: string): string {
  const lines = sentences(evidenceTitled(input, title)?.excerpt ?? '').filter((s) => s !== title);
  const mine = words(text);
  const shared = (line: string) => [...words(line)].filter((w) => mine.has(w)).length;
  return lines.reduce((best, line) => (shared(line) > shared(best) ? line : best), lines[0] ?? title);
}

/** A claim of our own wording citing the evidence titled `titles`, quoting the closest sentence of each. */
export function say(input: DraftInput, text: string, ...titles: string[]): DraftClaimSpec {
  return {
    text,
    reference_ids: titles.map((title) => refOf(input, title)),
    quotes: titles.map((title) => ({
      reference_id: refOf(input, title),
      text: closestSentence(input, title, text),
    })),
  };
}

/** A draft of these claims; `answer` is their text unless patched. */
export function draftOf(claims: DraftClaimSpec[], patch: Partial<DraftOutput> = {}): ChatAnswer {
  const draft: DraftOutput = {
    answer: claims.map((c) => c.text).join(' '),
    claims,
    answer_mode: 'facts',
    answer_intent: 'answer_business_question',
    inferences: [],
    uncertainties: [],
    gaps: [],
    abstain: false,
    ...patch,
  };
  return reply.json(draft);
}

// ------------------------------------------------------------------------------------------ review helpers

/** The honest review (every claim supported as drafted) with `patch` applied to it. */
export function reviewWith(
  input: ReviewInput,
  patch: (review: ReturnType<typeof defaultReview>) => unknown,
): ChatAnswer {
  const review = defaultReview(input);
  const patched = patch(review);
  return reply.json(patched === undefined ? review : patched);
}

// ----------------------------------------------------------------------------------------------- routing

/** Handlers for both roles that route on the scenario tag (honest defaults otherwise). */
export function adversarialHandlers(scenarios: readonly GroundingScenario[]): {
  draft: ChatHandler;
  review: ChatHandler;
} {
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const scenarioOf = (request: ChatRequest): GroundingScenario | undefined =>
    byId.get(scenarioTag((request.input as { question?: unknown } | undefined)?.question) ?? '');
  return {
    draft: (request) => {
      const scenario = scenarioOf(request);
      const input = request.input as DraftInput;
      if (scenario?.draft) return scenario.draft(input);
      return draftOf([quote(input, input.evidence[0]?.title ?? '')]);
    },
    review: (request) => {
      const scenario = scenarioOf(request);
      const input = request.input as ReviewInput;
      if (scenario?.review) return scenario.review(input);
      return reply.json(defaultReview(input));
    },
  };
}

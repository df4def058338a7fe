/**
 * Cairn's own wording checks of a claim against the text it cites (ARCHITECTURE invariant 3), beside the figure
 * check (claim-figures.ts); independent of both models, deterministic. A claim is unsupported when:
 * - `instruction`: it carries prompt-injection wording ("ignore previous instructions", "SYSTEM NOTE:", chat-role
 *   markup): a reply never instructs anyone, and such text in memory is poisoned evidence, never an answer;
 * - `negation`: it negates ("not", "never", "no", "cannot", "without", …) while its cited text negates nothing;
 * - `wording`: fewer than half of its content words (the search analyzer's terms: stop words dropped, Porter
 *   stems, numbers left to the figure check) occur in its cited text.
 * What it cannot catch: a claim that reuses the evidence's own words to say something else ("closed on Saturday"
 * from "open on Saturday, closed on Sunday"), synonyms it counts as different words (a faithful paraphrase in
 * other words is refused: fail-closed), and anything a reviewer must judge.
 */
import { tokenize } from '../infrastructure/search/sqlite/analyzer';
import { withoutFigures } from './claim-figures';
import { injectionViews } from '../safety/confusable-fold';

export type WordingProblem = 'instruction' | 'negation' | 'wording';

/** Share of a claim's content words that must occur in its cited text. */
export const MIN_WORD_SUPPORT = 0.5;

const INSTRUCTION = [
  /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:instructions?|rules|prompts?|guidelines|polic(?:y|ies))\b/i,
  /\b(?:system|developer|admin)\s+(?:note|prompt|message|instruction|override)s?\b/i,
  /<\|?\s*(?:im_start|im_end|system|endoftext)\s*\|?>/i,
  /(?:^|\n)\s*(?:system|assistant|developer)\s*:/i,
  /\byou are now\b|\bact as\b|\bnew instructions?\b|#{2,}\s*instruction/i,
];
const NEGATION =
  /\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|can['’]t|won['’]t|don['’]t|doesn['’]t|isn['’]t|aren['’]t|wasn['’]t|weren['’]t|shouldn['’]t|wouldn['’]t|couldn['’]t|didn['’]t|without|unable)\b/i;
/** Words a reply adds around facts without stating any (beyond the analyzer's stop words). */
const FILLER = new Set(
  "we you our your us i me my can may also please just all any each both here via per own get let we'r you'r".split(
    ' ',
  ),
);

/** The analyzer's terms of a text, figures (left to the figure check), numbers and filler words left out. */
function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const { term } of tokenize(withoutFigures(text))) {
    if (/\d/.test(term) || FILLER.has(term)) continue;
    terms.add(term);
  }
  return terms;
}

/** What the wording check needs of the cited texts, read once for every claim that cites them. */
export interface CitedWording {
  negates: boolean;
  terms: Set<string>;
}

export function citedWording(citedTexts: readonly string[]): CitedWording {
  const cited = citedTexts.join('\n').normalize('NFKC');
  return { negates: NEGATION.test(cited), terms: contentTerms(cited) };
}

/** The first wording problem of `claim` against what it cites (read once by citedWording), or null. */
export function wordingProblemIn(claim: string, cited: () => CitedWording): WordingProblem | null {
  const text = claim.normalize('NFKC');
  const views = injectionViews(text); // confusables folded, invisibles removed, spacing and leetspeak read
  if (views.some((view) => INSTRUCTION.some((pattern) => pattern.test(view)))) return 'instruction';
  if (NEGATION.test(text) && !cited().negates) return 'negation';
  const claimTerms = contentTerms(text);
  if (claimTerms.size === 0) return null;
  const { terms } = cited();
  let found = 0;
  for (const term of claimTerms) if (terms.has(term)) found += 1;
  return found / claimTerms.size >= MIN_WORD_SUPPORT ? null : 'wording';
}

/** The first wording problem of `claim` against the texts it cites, or null. */
export function wordingProblem(claim: string, citedTexts: readonly string[]): WordingProblem | null {
  return wordingProblemIn(claim, () => citedWording(citedTexts));
}

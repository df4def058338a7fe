/**
 * What a claim's figures and negations are said of, against its quotes (issue 31 points 2 and 3): the figure and
 * polarity checks hold each figure and the count of negations to the quotes; these hold what they are attached to.
 * Pure and deterministic; words read as claim-words.ts reads them. A claim is refused when:
 * - `attachment`: a figure is said of a word that, in its quotes, goes with another figure the claim does not state:
 *   "an e-bike costs NOK 290" quoting "a city bike costs NOK 290 … and an e-bike costs NOK 520"; "retake the quiz
 *   up to 2 times" quoting "retake the quiz up to 3 times" and, from another sentence, "valid for 2 years". A word
 *   goes with the nearest figure (ties: both), in the claim and in each quote; a word no quote states, or that goes
 *   with no figure of a quote (a quote without figures), is free. A claim that states both figures may share their
 *   words ("Shipping takes 3–5 days and costs $4.99");
 * - `polarity`: a word its quotes only ever negate ("… or fear of travel is not covered") stands in the claim
 *   without a negation before it ("change of mind is covered, but fear of travel is not covered").
 * What these cannot see: two figures of a quote swapped between the things they are said of when the claim states
 * both ("city bike NOK 520, e-bike NOK 290"), and a negation moved onto a word its quotes never negate.
 */
import { figurePlaces, figuresSupport, type Figure } from './claim-figures';
import { isContent, wordsOf } from './claim-words';

export type AttachmentProblem = 'attachment' | 'polarity';

/** Negations of a predicate ("is not covered", "never opens", "ist nicht versichert", "n'est pas couvert"). */
const PREDICATE_NEGATIONS: ReadonlySet<string> = new Set('never nie niemals pas jamais nunca'.split(' '));
/** "not"/"nicht" negate a predicate after an auxiliary ("is not", "are not", "ist nicht"); else a noun ("not all"). */
const NOT: ReadonlySet<string> = new Set(['not', 'nicht']);
const AUXILIARIES: ReadonlySet<string> = new Set(
  (
    'is are was were be been being am do does did can could will would shall should may might must has have had ' +
    'ist sind war waren wird werden kann konnen darf'
  ).split(' '),
);
/** Any negation, for whether a claim's word is negated (within NEGATION_REACH words before it). */
const NEGATIONS: ReadonlySet<string> = new Set(
  'not no never none cannot without nor neither nunca no sin ni nicht kein keine nie niemals ohne pas jamais sans'.split(
    ' ',
  ),
);
/** How many words before a word a negation reaches ("is not covered", "are never refunded"). */
const NEGATION_REACH = 3;

interface Place {
  figures: Figure[];
  start: number;
}

/** Each content word's stem with the figure places it goes with (nearest by words; ties: both). */
function attachments(text: string): Map<string, Set<Place>> {
  const places: Place[] = figurePlaces(text);
  const words = wordsOf(text);
  const byStem = new Map<string, Set<Place>>();
  if (places.length === 0) return byStem;
  // Word order of every word and every figure place, by where it starts.
  const order = [...words.map((w) => w.at), ...places.map((p) => p.start)].sort((a, b) => a - b);
  const rank = new Map(order.map((at, i) => [at, i]));
  for (const word of words) {
    if (!isContent(word)) continue;
    const at = rank.get(word.at) ?? 0;
    const distances = places.map((place) => Math.abs((rank.get(place.start) ?? 0) - at));
    const nearest = Math.min(...distances);
    const set = byStem.get(word.stem) ?? new Set<Place>();
    for (const [i, place] of places.entries()) if (distances[i] === nearest) set.add(place);
    byStem.set(word.stem, set);
  }
  return byStem;
}

/** Whether some figure of the claim states what `place` (a quote's figures) states. */
const claimStates = (claimFigures: readonly Figure[], place: Place) =>
  claimFigures.some((figure) => figuresSupport(place.figures, figure));

function misattached(claim: string, quotes: readonly string[]): boolean {
  const claimAttachments = attachments(claim);
  if (claimAttachments.size === 0) return false;
  const claimFigures = figurePlaces(claim).flatMap((place) => place.figures);
  const quoteAttachments = quotes.map(attachments);
  for (const [stem, claimPlaces] of claimAttachments) {
    // The quote places this word goes with; a word that goes with none (or is in no quote) is free.
    const owners = quoteAttachments.flatMap((byStem) => [...(byStem.get(stem) ?? [])]);
    if (owners.length === 0) continue;
    for (const claimPlace of claimPlaces)
      for (const figure of claimPlace.figures) {
        const ownFigure = owners.some((owner) => figuresSupport(owner.figures, figure));
        if (!ownFigure && !owners.some((owner) => claimStates(claimFigures, owner))) return true;
      }
  }
  return false;
}

/** The stems a quote negates as a predicate: the first content word after "is not", "never", "pas", … */
function negatedPredicates(text: string): { negated: Set<string>; plain: Set<string> } {
  const words = wordsOf(text);
  const negated = new Set<string>();
  for (const [i, word] of words.entries()) {
    const predicate =
      PREDICATE_NEGATIONS.has(word.word) ||
      (NOT.has(word.word) && i > 0 && AUXILIARIES.has(words[i - 1].word));
    if (!predicate) continue;
    const next = words.slice(i + 1, i + 3).find(isContent);
    if (next !== undefined) negated.add(next.stem);
  }
  const plain = new Set(words.filter((w, i) => isContent(w) && !negatedAt(words, i)).map((w) => w.stem));
  return { negated, plain };
}

/** "neither … nor …" reaches over the subject it lists ("nor fear of travel is covered"). */
const LIST_NEGATIONS: ReadonlySet<string> = new Set(['neither', 'nor', 'ni', 'weder', 'noch']);
const LIST_NEGATION_REACH = 6;

/** Whether a negation stands within NEGATION_REACH words before word `i` (a "nor" within LIST_NEGATION_REACH). */
const negatedAt = (words: readonly { word: string }[], i: number): boolean =>
  words.slice(Math.max(0, i - NEGATION_REACH), i).some((w) => NEGATIONS.has(w.word)) ||
  words.slice(Math.max(0, i - LIST_NEGATION_REACH), i).some((w) => LIST_NEGATIONS.has(w.word));

/** Whether the claim states plainly a predicate its quotes only ever negate. */
function unnegates(claim: string, quotes: readonly string[]): boolean {
  const quoted = quotes.map(negatedPredicates);
  const onlyNegated = new Set(
    quoted.flatMap((q) => [...q.negated]).filter((stem) => quoted.every((q) => !q.plain.has(stem))),
  );
  if (onlyNegated.size === 0) return false;
  const words = wordsOf(claim);
  return words.some((w, i) => onlyNegated.has(w.stem) && !negatedAt(words, i));
}

/** The first attachment problem of `claim` against its quotes, or null. */
export function attachmentProblem(claim: string, quotes: readonly string[]): AttachmentProblem | null {
  if (misattached(claim, quotes)) return 'attachment';
  if (unnegates(claim, quotes)) return 'polarity';
  return null;
}

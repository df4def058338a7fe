/**
 * Scope checks of a claim against its own quotes (issue 31 point 5) that need word order, beside the word-set checks
 * of claim-wording.ts. Pure and deterministic; text is read folded (NFKC, invisibles removed, look-alikes and accents
 * folded, lower case), as words (letters and digits) stemmed with the search analyzer's Porter stemmer. A claim is
 * refused when:
 * - `restriction`: it splices its quote: two words it writes side by side stand apart in the quote, and the words
 *   between them (at most SPLICE_MAX_WORDS, at least one a content word the claim never uses that is not a name)
 *   restrict what the claim is about: a phrase opened by a preposition, relative or condition ("Phones get 50% …"
 *   from "Phones with cracked screens get 50% …"), or words between a determiner and its noun ("any retailer" from
 *   "any authorised Swedish retailer"). A gap that is a list going on ("a copy or deletion" → "deletion") narrows
 *   the claim instead, and a word left out elsewhere ("is [available] in") is the reviewer's to judge;
 * - `quantifier`: a universal ("all", "every", "any", "each", …) ranges over a word its quotes do not state: "all
 *   items" from "all accessories" (the question's "all items" is the customer's wording, not the source's);
 * - `echo`: it repeats ECHO_WORDS or more consecutive words of text the customer dictated (what the question puts in
 *   quotation marks, or writes after a colon), and those words are not in its quotes: "Please repeat after me:
 *   'Brightwell waives the restocking fee …'" answered with that sentence.
 * What these cannot see: a restriction stated only by word order the claim keeps ("closed on Sunday" from "open on
 * Sunday, closed on Monday" quoted whole), a synonym that widens ("items" for "goods" when the question said neither),
 * a gap longer than SPLICE_MAX_WORDS.
 */
import { isContent, namesOf, wordsOf, type Word } from './claim-words';

export type ScopeProblem = 'restriction' | 'quantifier' | 'echo';

/** Longest run of quote words a claim may be seen to skip between two of its own adjacent words. */
export const SPLICE_MAX_WORDS = 6;
/** Consecutive dictated words that make a claim an echo of the customer. */
export const ECHO_WORDS = 5;

const UNIVERSALS: ReadonlySet<string> = new Set(
  'all every any each entire todos todas todo cualquier alle jede jeder jedes tous toutes chaque'.split(' '),
);
/**
 * Words that open a restricting phrase after what it restricts: prepositions, relatives, conditions ("phones with
 * cracked screens", "items that are unused", "orders placed before 2 pm"), in the four supported languages.
 */
const RESTRICTING_START: ReadonlySet<string> = new Set(
  (
    'to with without for in on at from of by under over above below within between during before after until ' +
    'that which who whose where when if unless except only while except provided placed bought made ' +
    'con sin para en de desde hasta que si salvo excepto mit ohne fur in an auf von bei unter uber vor nach ' +
    'bis die der das wenn ausser avec sans pour dans sur de par sous avant apres jusqu qui que si sauf'
  ).split(' '),
);
/** Words after which a skipped run is a premodifier of the noun that follows ("any authorised Swedish retailer"). */
const DETERMINERS: ReadonlySet<string> = new Set(
  (
    'a an the any all every each some no our your their its this these those most many several certain ' +
    'un una unos unas el la los las todos todas cada ein eine einen der die das alle jede jeder le la les des ' +
    'tous toutes chaque'
  ).split(' '),
);
/** Words a skipped run may start with that continue a list rather than restrict (the claim narrows, never widens). */
const LIST_GOES_ON: ReadonlySet<string> = new Set('and or plus y o und oder et ou'.split(' '));
/** Pairs (claim index, quote index) of a longest common subsequence of stems, in order. */
function alignment(claim: readonly Word[], quote: readonly Word[]): Array<[number, number]> {
  const m = claim.length;
  const n = quote.length;
  const table = new Uint16Array((m + 1) * (n + 1));
  const at = (i: number, j: number) => i * (n + 1) + j;
  for (let i = m - 1; i >= 0; i -= 1)
    for (let j = n - 1; j >= 0; j -= 1)
      table[at(i, j)] =
        claim[i].stem === quote[j].stem
          ? table[at(i + 1, j + 1)] + 1
          : Math.max(table[at(i + 1, j)], table[at(i, j + 1)]);
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < m && j < n) {
    if (claim[i].stem === quote[j].stem) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (table[at(i + 1, j)] >= table[at(i, j + 1)]) i += 1;
    else j += 1;
  }
  return pairs;
}

/** A content word the claim never uses and that is not a name: what a dropped restriction is made of. */
const droppedWord =
  (claimStems: ReadonlySet<string>, names: ReadonlySet<string>) =>
  (w: Word): boolean =>
    isContent(w) && !claimStems.has(w.stem) && !names.has(w.stem);

/** Whether a run of quote words left out restricts (a phrase after what it restricts, or a premodifier). */
function restricts(run: readonly Word[], before: Word | undefined, dropped: (w: Word) => boolean): boolean {
  if (run.length === 0 || run.length > SPLICE_MAX_WORDS || !run.some(dropped)) return false;
  // A compound modifier ("single-course purchases") restricts wherever it stands.
  if (run.some((w) => w.head !== undefined && dropped(w))) return true;
  if (RESTRICTING_START.has(run[0].word)) return true;
  // "a copy or deletion" → "deletion", "a helmet and a lock" → "a lock": one item of a list, which narrows.
  if (run.some((w) => LIST_GOES_ON.has(w.word))) return false;
  // Words between a determiner and its noun ("any [authorised] retailer"). Other words left out ("is [available]
  // in the garage") are the reviewer's to judge.
  return before !== undefined && DETERMINERS.has(before.word);
}

/** Whether the claim leaves out a restricting part of a quote (inside it, at its start or at its end). */
function splices(claim: readonly Word[], quote: readonly Word[], names: ReadonlySet<string>): boolean {
  const claimStems = new Set(claim.map((w) => w.stem));
  const dropped = droppedWord(claimStems, names);
  // "bike rentals" from "e-bike rentals": a compound's head without the compound (and no such word alone).
  const quoteStems = new Set(quote.map((w) => w.stem));
  for (const w of quote)
    if (w.head !== undefined && !claimStems.has(w.stem) && claimStems.has(w.head) && !quoteStems.has(w.head))
      return true;
  const pairs = alignment(claim, quote);
  if (pairs.length === 0) return false;
  for (let k = 1; k < pairs.length; k += 1) {
    const [ca, qa] = pairs[k - 1];
    const [cb, qb] = pairs[k];
    if (cb === ca + 1 && restricts(quote.slice(qa + 1, qb), quote[qa], dropped)) return true;
  }
  // The quote's subject left off with its restriction: "You get Plus …" quoting "Students with a valid student ID
  // get Plus …" (a lead opened by a preposition, "At the desk on Bryggen, …", is a setting, not a subject).
  const lead = quote.slice(0, pairs[0][1]);
  const restriction = lead.findIndex((w) => RESTRICTING_START.has(w.word));
  if (lead.length > 0 && restriction > 0 && dropped(lead[0]))
    if (lead.slice(restriction + 1).some(dropped)) return true;
  // The quote's end left off: "A restocking fee of 15% applies." quoting "… applies to opened electronics", when the
  // claim states none of it (a reordered claim, "Opened electronics carry a restocking fee", has it).
  const tail = quote.slice(pairs[pairs.length - 1][1] + 1);
  if (tail.length === 0 || !RESTRICTING_START.has(tail[0].word)) return false;
  const content = tail.filter((w) => isContent(w) && !names.has(w.stem));
  return content.length > 0 && content.every((w) => !claimStems.has(w.stem));
}

/** Whether a universal of the claim ranges over a content word none of its quotes state. */
function widensUniversal(claim: readonly Word[], quoted: ReadonlySet<string>): boolean {
  for (let i = 0; i < claim.length; i += 1) {
    if (!UNIVERSALS.has(claim[i].word)) continue;
    const next = claim.slice(i + 1, i + 3).find(isContent);
    if (next !== undefined && !quoted.has(next.stem)) return true;
  }
  return false;
}

/** The texts the customer dictated: what the question quotes, and what follows a colon. */
function dictated(question: string): string[] {
  const spans = [...question.matchAll(/["“”«»„]([^"“”«»„]{8,})["“”«»„]/gu)].map((m) => m[1]);
  const colon = question.indexOf(':');
  if (colon >= 0) spans.push(question.slice(colon + 1));
  return spans;
}

function ngrams(words: readonly Word[], n: number): Set<string> {
  const grams = new Set<string>();
  for (let i = 0; i + n <= words.length; i += 1)
    grams.add(
      words
        .slice(i, i + n)
        .map((w) => w.stem)
        .join(' '),
    );
  return grams;
}

/** Whether the claim repeats ECHO_WORDS consecutive dictated words that its quotes do not hold. */
function echoes(claim: readonly Word[], quotes: readonly Word[][], question: string): boolean {
  const spans = dictated(question);
  if (spans.length === 0 || claim.length < ECHO_WORDS) return false;
  const quoted = new Set(quotes.flatMap((q) => [...ngrams(q, ECHO_WORDS)]));
  const customer = new Set(spans.flatMap((span) => [...ngrams(wordsOf(span), ECHO_WORDS)]));
  for (const gram of ngrams(claim, ECHO_WORDS)) if (customer.has(gram) && !quoted.has(gram)) return true;
  return false;
}

/** The first scope problem of `claim` against its quotes (and the sentences they lie in), or null. */
export function scopeProblem(
  claim: string,
  quotes: readonly string[],
  question = '',
  context: readonly string[] = [],
): ScopeProblem | null {
  const claimWords = wordsOf(claim);
  const quoteWords = quotes.map(wordsOf);
  if (quoteWords.some((quote, i) => splices(claimWords, quote, namesOf(quotes[i])))) return 'restriction';
  const quoted = new Set([...quoteWords, ...context.map(wordsOf)].flatMap((q) => q.map((w) => w.stem)));
  if (widensUniversal(claimWords, quoted)) return 'quantifier';
  if (echoes(claimWords, [...quoteWords, ...context.map(wordsOf)], question)) return 'echo';
  return null;
}

/**
 * Cairn's own wording checks of a claim against its own quotes (ARCHITECTURE invariant 3), beside the typed-fact
 * check (claim-figures.ts); independent of both models, deterministic. Text is read folded: NFKC, invisible
 * characters removed, look-alike letters and accents folded (confusables), lower case. A claim is unsupported when:
 * - `instruction`: it carries prompt-injection wording ("ignore previous instructions", "SYSTEM NOTE:", chat-role
 *   markup): a reply never instructs anyone, and such text in memory is poisoned evidence, never an answer;
 * - `polarity`: its negations (a closed list in English, Spanish, German and French: "not", "n't", "never", "no
 *   longer", "non-", "without", "nunca", "sin", "nicht", "kein", "ne … pas", "jamais", "sans", …) are not its
 *   quotes' (their count differs). A leading "No," / "Yes," answering the question is not a negation;
 * - `condition`: its quotes state a condition (if, unless, only, above/over/more than, below/under/up to, except,
 *   for members, and their Spanish, German and French equivalents) the claim drops, or the claim adds one that
 *   neither its quotes nor the question state;
 * - `quantifier`: it widens a quantifier: a universal ("all", "every", "always", "any", "todos", "alle", "tous", …)
 *   its quotes and the question do not state, or a partial one of its quotes ("some", "most", "certain", …) dropped;
 * - `wording`: one of its content words (the search analyzer's terms: stop words dropped, Porter stems, figures
 *   left to the figure check) is in neither its quotes (and the sentences they lie in), the question, nor
 *   CONNECTING_WORDS.
 * What it cannot catch: a claim that reuses its quotes' own words to say something else ("closed on Saturday"
 * from "open on Saturday, closed on Sunday" quoted whole), and anything only a reader of meaning can judge.
 */
import { tokenize } from '../infrastructure/search/sqlite/analyzer';
import { withoutFigures } from './claim-figures';
import { foldLetters, injectionViews } from '../safety/confusable-fold';

export type WordingProblem = 'instruction' | 'polarity' | 'condition' | 'quantifier' | 'wording';

const INSTRUCTION = [
  /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(?:instructions?|rules|prompts?|guidelines|polic(?:y|ies))\b/i,
  /\b(?:system|developer|admin)\s+(?:note|prompt|message|instruction|override)s?\b/i,
  /<\|?\s*(?:im_start|im_end|system|endoftext)\s*\|?>/i,
  /(?:^|\n)\s*(?:system|assistant|developer)\s*:/i,
  /\byou are now\b|\bact as\b|\bnew instructions?\b|#{2,}\s*instruction/i,
];

const L = String.raw`(?<![\p{L}\p{N}])`;
const R = String.raw`(?![\p{L}\p{N}])`;
const words = (list: string) =>
  new RegExp(
    `${L}(?:${list
      .trim()
      .split(/\s*\|\s*/)
      .join('|')})${R}`,
    'gu',
  );

/** Negations, folded (accents and look-alikes removed), in the four supported languages. */
const NEGATION = new RegExp(
  [
    `${L}(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without|unable|nowhere)${R}`,
    String.raw`[\p{L}]n['’]t${R}`,
    `${L}non[- ]?(?=\\p{L})`,
    `${L}(?:nunca|jamas|ningun|ninguna|ninguno|nada|nadie|sin|tampoco|ni)${R}`,
    `${L}(?:nicht|kein|keine|keinen|keinem|keiner|keines|nie|niemals|ohne|nichts|weder)${R}`,
    `${L}(?:ne|n['’]|pas|jamais|aucun|aucune|sans|rien)(?=\\p{L}|${R})`,
  ].join('|'),
  'gu',
);
/** A leading answer word ("No," "Yes." "Sí," "Nein,") answers the question; it negates nothing the claim states. */
const ANSWER_WORD = /^\s*(?:no|yes|si|sí|nein|ja|non|oui)\s*[,.!;:–—-]+\s*/iu;
const YES_WORD = /^\s*(?:yes|si|sí|ja|oui)\s*[,.!;:–—-]+/iu;

/** Condition groups: a quote's condition may be said with any word of its group, and never dropped. */
const CONDITIONS: Record<string, RegExp> = {
  if: words(
    'if | provided | providing | as long as | in case | si | siempre que | wenn | falls | sofern | solange',
  ),
  unless: words('unless | a menos que | salvo que | es sei denn | a moins que | sauf si'),
  only: words(
    'only | solely | exclusively | solo | solamente | unicamente | nur | ausschliesslich | seulement | uniquement',
  ),
  above: new RegExp(
    `${L}(?:above|more than|at least|minimum|exceeding|mas de|superior(?:es)? a|mayor(?:es)? (?:a|de)|mindestens|plus de|au moins|au-dessus|ab|(?:over|uber)(?=\\s*[$€£\\d]))${R}`,
    'gu',
  ),
  below: new RegExp(
    `${L}(?:below|less than|up to|at most|maximum|no more than|menos de|inferior(?:es)? a|hasta|bis zu|hochstens|moins de|jusqu['’]a|(?:under|unter)(?=\\s*[$€£\\d]))${R}`,
    'gu',
  ),
  except: words('except | excluding | other than | excepto | salvo | ausser | ausgenommen | sauf | hormis'),
  members: words(
    'members? | membership | subscribers? | miembros? | socios? | mitglieder | mitglied | membres? | abonnes?',
  ),
};
/** "within" bounds like "up to" (a claim may restate it so), but is not itself a condition a claim must keep. */
const WITHIN = words('within | no later than | dentro de | innerhalb | binnen | sous | d.ici');
const UNIVERSAL = words(
  'all | every | everything | everyone | always | any | each | entire | todos | todas | todo | siempre | cualquier | alle | jede | jeder | jedes | immer | tous | toutes | toujours | chaque',
);
const PARTIAL = words(
  'some | most | many | several | certain | selected | few | algunos | algunas | ciertos | ciertas | einige | manche | bestimmte | certains | certaines | quelques',
);

/**
 * Words a reply adds around facts without stating any (beyond the analyzer's stop words): pronouns, auxiliaries,
 * politeness and connectives, and the function words of the other supported languages.
 */
export const CONNECTING_WORDS: ReadonlySet<string> = new Set(
  (
    "we you our your us i me my can may also please just here via per own get let we'r you'r yes sure happy glad " +
    'cost costs take takes offer offers provide provides receive need up from ' +
    'do doe did ha have has had been being would could should so which who what when where how both each note ' +
    'el la lo los las un una unos unas de del y o que en con por para es son esta estan su sus nuestro nuestra ' +
    'nuestros nuestras usted ustedes le les se al ' +
    'der die das den dem des ein eine einen einem und oder ist sind wir sie ihr ihre unser unsere zu mit bei im am ' +
    'auf fur sich es ' +
    'du et ou est sont notre nos votre vos il ils elle elles nous vous au aux en sur pour avec ce cette'
  )
    .split(' ')
    .flatMap((word) => [word, ...tokenize(word).map((t) => t.term)]),
);

/** A text as the wording checks read it: NFKC, invisible characters removed, look-alikes and accents folded. */
export const foldText = foldLetters;

const count = (pattern: RegExp, text: string): number => text.match(pattern)?.length ?? 0;

/** The analyzer's terms of a text, figures (left to the figure check), numbers and connecting words left out. */
function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const { term } of tokenize(foldText(withoutFigures(text)))) {
    if (/\d/.test(term) || CONNECTING_WORDS.has(term)) continue;
    terms.add(term);
  }
  return terms;
}

function conditionGroups(text: string): Set<string> {
  return new Set(Object.keys(CONDITIONS).filter((group) => count(CONDITIONS[group], text) > 0));
}

/** The first wording problem of `claim` against its quotes (and the question it answers), or null. */
export function wordingProblem(
  claim: string,
  quotes: readonly string[],
  question = '',
  /** The sentences the quotes lie in (their words may be restated; figures, negations, conditions may not). */
  context: readonly string[] = [],
): WordingProblem | null {
  for (const text of new Set([claim, ...quotes, ...context])) {
    const plain = text.normalize('NFKC');
    // Confusables folded, invisibles removed, spacing and leetspeak read (injectionViews), and this file's fold.
    const views = [...injectionViews(plain), foldText(plain)];
    if (views.some((view) => INSTRUCTION.some((pattern) => pattern.test(view)))) return 'instruction';
  }
  const text = foldText(claim).replace(ANSWER_WORD, '');
  const quoted = quotes.map(foldText);
  const asked = foldText(question);
  const quoteNegations = quoted.reduce((n, q) => n + count(NEGATION, q), 0);
  if (count(NEGATION, text) !== quoteNegations) return 'polarity';

  const claimConditions = conditionGroups(text);
  const quoteConditions = conditionGroups(quoted.join('\n'));
  const askedConditions = conditionGroups(asked);
  for (const group of quoteConditions) if (!claimConditions.has(group)) return 'condition';
  for (const group of claimConditions) {
    // "up to 5 days" restates "within 5 days": a limit its quote states with "within" is not an added condition.
    const stated = quoteConditions.has(group) || (group === 'below' && count(WITHIN, quoted.join('\n')) > 0);
    if (!stated && !askedConditions.has(group)) return 'condition';
  }

  const quotedText = quoted.join('\n');
  if (count(UNIVERSAL, text) > 0 && count(UNIVERSAL, quotedText) === 0 && count(UNIVERSAL, asked) === 0)
    return 'quantifier';
  if (count(PARTIAL, quotedText) > 0 && count(PARTIAL, text) === 0) return 'quantifier';

  // A "Yes," answer affirms in its quotes' words only: echoing the question's words after it would
  // let the customer's own message state the answer ("Yes, gift cards are refundable").
  const affirms = YES_WORD.test(claim);
  const sources = affirms ? [...quotes, ...context] : [...quotes, ...context, question];
  const known = new Set([...new Set(sources)].flatMap((t) => [...contentTerms(t)]));
  for (const term of contentTerms(claim.replace(ANSWER_WORD, ''))) if (!known.has(term)) return 'wording';
  return null;
}

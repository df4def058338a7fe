/**
 * A claim's or a quote's words as the order-aware grounding checks read them (claim-scope.ts, claim-attachment.ts):
 * text normalized as the figure check reads it (NFKC, lower case, invisible characters removed), figures left out
 * (they are the figure check's: "Mon–Fri" is not a word to keep), each word folded (look-alikes and accents, with
 * confusable-fold) and stemmed with the search analyzer's Porter stemmer. A hyphenated compound is one word
 * ("e-bike", "single-course"): its last part is its head ("bike").
 */
import { ENGLISH_STOP_WORDS } from '../infrastructure/search/sqlite/analyzer';
import { porterStem } from '../infrastructure/search/sqlite/porter-stemmer';
import { foldLetters } from '../safety/confusable-fold';
import { withoutFigures } from './claim-figures';

export interface Word {
  /** The folded word as written (for the quantifier, list and negation checks). */
  word: string;
  /** Its stem (what words are matched by); a compound's parts joined by `-`, its last part stemmed. */
  stem: string;
  /** A compound's last part, stemmed ("bike" of "e-bike"); undefined for a simple word. */
  head?: string;
  /** Where it starts in the normalized text (the coordinates of claim-figures' `figurePlaces`). */
  at: number;
}

/** Words that carry no content of their own (besides the analyzer's stop words). */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'we you our your us i me my they them its his her he she can may also please just here via per own get let ' +
    'do does did has have had been being would could should so which who what when where how both some all every ' +
    'any each from up out about over after before than too very more most less much many only well'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+|[-‐][\p{L}\p{N}]+)*/gu;

/** Contractions whose auxiliary is not their stem ("can't", "won't", "shan't"). */
const CONTRACTED: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall', ai: 'is' };

const stemOf = (part: string) => (/^\p{L}+$/u.test(part) ? porterStem(part) : part);

/** The words of a text, figures left out, in order. */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const match of withoutFigures(text).matchAll(WORD)) {
    const folded = foldLetters(match[0]);
    // "isn't" → "is not", "can't" → "can not", "won't" → "will not" (what the negation checks read).
    const contraction = /^(.*?)n['’]t$/u.exec(folded);
    if (contraction !== null) {
      const aux = CONTRACTED[contraction[1]] ?? contraction[1];
      words.push(
        { word: aux, stem: stemOf(aux), at: match.index },
        { word: 'not', stem: 'not', at: match.index },
      );
      continue;
    }
    const word = folded.replace(/['’]\p{L}*$/u, '');
    const parts = word.split(/[-‐]/);
    if (parts.length === 1) words.push({ word, stem: stemOf(word), at: match.index });
    else {
      const head = stemOf(parts[parts.length - 1]);
      words.push({ word, stem: [...parts.slice(0, -1), head].join('-'), head, at: match.index });
    }
  }
  return words;
}

/** Whether a word says something of its own (not a stop word, a function word, a number or a single letter). */
export const isContent = (w: Word): boolean =>
  !ENGLISH_STOP_WORDS.has(w.word) &&
  !FUNCTION_WORDS.has(w.word) &&
  /\p{L}/u.test(w.word) &&
  w.word.length > 1;

/** Capitalized words that are adjectives of a nationality or a language ("Norwegian", "Swedish", "Chinese"). */
const DEMONYM = /(?:ian|ish|ese|ean|ic|an|i)$/u;

/**
 * The stems of a text's names: words written with a capital inside a sentence ("the Brightwell Clinic", "on
 * Bryggen"), not nationality adjectives ("your Norwegian bank account" restricts). Leaving a name out identifies
 * less, it does not widen what a claim says ("the clinic").
 */
export function namesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.normalize('NFKC').matchAll(/(?<![.!?:]\s*|^\s*)\b\p{Lu}[\p{L}\p{N}]*/gu)) {
    if (DEMONYM.test(match[0])) continue;
    for (const word of wordsOf(match[0])) names.add(word.stem);
  }
  return names;
}

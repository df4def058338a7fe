/**
 * The views of a text that prompt-injection patterns are matched against (issue 31 point 7), so that wording a
 * reader sees as "ignore previous instructions" is matched whatever characters spell it. Pure; only for matching
 * (a view is never sent or stored). The first view is step 1 alone (markup such as `<|im_start|>` stays as it is);
 * the others are made by, in order:
 * 1. Unicode NFKC (fullwidth `ｉｇｎｏｒｅ`, mathematical `𝐢𝐠𝐧𝐨𝐫𝐞`, `ⅰ`), with invisible characters removed (format
 *    controls and default-ignorables: zero-width space/joiners, soft hyphen, bidi controls, variation selectors);
 * 2. confusable letters folded to the ASCII letter they look like, with the `confusables` package (3,300 look-alikes:
 *    Cyrillic `іgnоrе`, Greek `Αct αs`); the text is decomposed (NFD) first and the package drops combining marks,
 *    so accented letters (`ïgnörë`, Cyrillic `ї`) read as their base letter. We use the
 *    package rather than a curated table for its coverage, and correct the one place it does not fit: it folds
 *    glyphs that look like both `I` and `l` (Cyrillic `І`/`Ӏ`, Greek `Ι`/`ι`, dotless `ı`, `ɩ`, `|`) mostly to `l`,
 *    so "ІGNORE" would not read "ignore". Those glyphs become `i` in the first view and `l` in a second one, and a
 *    third view also reads every ASCII `l` as `i` ("lgnore prevlous lnstructlons");
 * 3. lower case; leetspeak digits read as letters inside words that mix letters and digits (`1gn0re`, `instruct10ns`:
 *    0→o 1→i 3→e 4→a 5→s 7→t, `@`→a, `$`→s; a figure such as `$50` or `9:00` has no letter and is left alone);
 * 4. letters spaced out one by one joined (`i g n o r e`, `i.g.n.o.r.e`, three letters or more, one separator
 *    character between them); a double separator stays a word break, and inside a joined run the key words of the
 *    patterns are set apart (`ignorepreviousinstructions` → `ignore previous instructions`).
 * Not read: words spelled across lines or with two separators between letters, homophones, other languages.
 */
import { remove as foldConfusableLetters, confusablesMap } from 'confusables';

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** Non-ASCII glyphs the package folds to I, i, l or L: they read as either letter. */
export const I_OR_L: ReadonlySet<string> = new Set(
  [...confusablesMap.entries()]
    .filter(([glyph, letter]) => /^[IiLl]$/.test(letter) && /[^\x20-\x7E]/.test(glyph))
    .map(([glyph]) => glyph)
    .concat(['|']),
);

const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
/** A word of letters and leet characters holding at least one of each. */
const LEET_WORD = /[a-z0-9@$]+/g;
/** Three or more single letters, each followed by exactly one separator and the next letter. */
const SPACED_LETTERS = /(?<![a-z0-9])[a-z](?:[ ._*·•-][a-z](?![a-z0-9])){2,}/g;
const SPACING = /[ ._*·•-]/g;
const KEY_WORDS =
  /ignore|disregard|forget|override|previous|prior|above|all|instructions?|rules|prompts?|guidelines|polic(?:y|ies)|system|developer|admin|note|message|you|are|now|act|as|new/g;

function deLeet(word: string): string {
  if (!/[a-z]/.test(word) || !/[0-9@$]/.test(word)) return word;
  if (/^[0-9@$]+[a-z]{0,3}$/.test(word)) return word; // a figure with its unit: 4pm, 30d, 2nd
  return word.replace(/[0-9@$]/g, (char) => LEET[char] ?? char);
}

function joinSpacedLetters(text: string): string {
  return text.replace(SPACED_LETTERS, (run) => ` ${run.replace(SPACING, '').replace(KEY_WORDS, ' $& ')} `);
}

function view(folded: string, iOrL: 'i' | 'l', asciiLAsI: boolean): string {
  let text = '';
  // Decomposed, so that the package's removal of combining marks also reaches precomposed letters (`ї`, `ö`).
  for (const char of folded.normalize('NFD')) text += I_OR_L.has(char) ? iOrL : char;
  text = foldConfusableLetters(text).toLowerCase();
  if (asciiLAsI) text = text.replace(/l/g, 'i');
  text = text.replace(LEET_WORD, deLeet);
  return joinSpacedLetters(text);
}

/** Step 1: NFKC with invisible characters removed (the text as a reader sees it). */
export function visibleText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/**
 * Steps 1 and 2 without the I/l views, lower case, `ß` as `ss`: one folded text for word matching (the grounding
 * wording checks). Printable ASCII comes back lower-cased only.
 */
export function foldLetters(text: string): string {
  // eslint-disable-next-line no-control-regex -- printable ASCII has nothing to fold
  if (/^[\x00-\x7F]*$/.test(text)) return text.toLowerCase();
  return foldConfusableLetters(visibleText(text.replace(/ß/g, 'ss'))).toLowerCase();
}

/** The views of `text` to match injection patterns against (see the file comment), the NFKC one first. */
export function injectionViews(text: string): string[] {
  const compatible = visibleText(text);
  // The unfolded view keeps markup such as `<|im_start|>` (the package folds `|` to `l`).
  const views = [compatible, view(compatible, 'i', false), view(compatible, 'i', true)];
  if ([...compatible].some((char) => I_OR_L.has(char))) views.push(view(compatible, 'l', false));
  return views;
}

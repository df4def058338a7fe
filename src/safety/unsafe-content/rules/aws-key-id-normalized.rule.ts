import { confusablesMap } from 'confusables';
import { I_OR_L } from '../../confusable-fold';
import type { RawFinding } from './finding';

/**
 * AWS access key ids written so the plain pattern misses them (issue 29): a space, hyphen or dot every few
 * characters, split over lines or table cells, in lower case, or with look-alike letters (Cyrillic `АКІА`, Greek,
 * Latin small capitals `ᴀᴋɪᴀ`). A view for key ids only: the text is cut into pieces of letters and digits
 * (look-alikes folded with the `confusables` table, glyphs that read as I or l read as `I`), separated by runs of at
 * most 4 separator characters; consecutive pieces whose letters and digits are exactly an access key id
 * (`AKIA`/`ASIA` + 16 base32 characters), starting and ending on piece boundaries, are flagged. To keep prose out,
 * the 16 characters hold a digit and the ASCII letters are all upper case or all lower case.
 *
 * Linear: one pass builds the pieces; from each piece at most 20 characters' worth of following pieces are read.
 */
const KEY_ID = /^(?:AKIA|ASIA)[A-Z2-7]{16}$/;
const KEY_ID_LENGTH = 20;
const MAX_SEPARATOR_RUN = 4;
/** Separators between pieces: blanks, line breaks (also U+2028/2029), `.`, `-`, `_`, `|`, `·`, invisible characters. */
const SEPARATOR = /^[\s.\-_|·\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;

interface Piece {
  start: number;
  end: number;
  /** Folded, upper case. */
  chars: string;
  upper: boolean;
  lower: boolean;
  /** The run of separators before the next piece was short (the next piece continues this one's group). */
  joinsNext: boolean;
}

/** A non-ASCII character's letter or digit (look-alikes folded, upper case), or null. */
function foldNonAscii(char: string): string | null {
  if (I_OR_L.has(char)) return 'I';
  const mapped = confusablesMap.get(char);
  return mapped !== undefined && /^[A-Za-z0-9]$/.test(mapped) ? mapped.toUpperCase() : null;
}

/** ASCII classes by code (the scan's hot path: most text is ASCII prose, read without a regular expression). */
const NONE = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const SEPARATING = 4;
const ASCII_CLASS = Uint8Array.from({ length: 0x80 }, (_, code) => {
  const char = String.fromCharCode(code);
  if (/[A-Z]/.test(char)) return UPPER;
  if (/[a-z]/.test(char)) return LOWER;
  if (/[0-9]/.test(char)) return DIGIT;
  return SEPARATOR.test(char) ? SEPARATING : NONE;
});

function piecesOf(text: string): Piece[] {
  const pieces: Piece[] = [];
  let current: Piece | null = null;
  let separators = 0;
  let offset = 0;
  for (const char of text) {
    const code = char.charCodeAt(0);
    const kind = code < 0x80 ? ASCII_CLASS[code]! : NONE;
    let folded: string | null;
    if (kind === UPPER || kind === DIGIT) folded = char;
    else if (kind === LOWER) folded = String.fromCharCode(code - 32);
    else folded = code < 0x80 ? null : foldNonAscii(char);
    if (folded !== null) {
      if (current === null || separators > 0) {
        if (current !== null) current.joinsNext = separators <= MAX_SEPARATOR_RUN;
        current = { start: offset, end: offset, chars: '', upper: false, lower: false, joinsNext: false };
        pieces.push(current);
      }
      current.chars += folded;
      current.end = offset + char.length;
      if (kind === UPPER) current.upper = true;
      else if (kind === LOWER) current.lower = true;
      separators = 0;
    } else if (current !== null && (code < 0x80 ? kind === SEPARATING : SEPARATOR.test(char))) {
      separators++;
    } else {
      current = null;
      separators = 0;
    }
    offset += char.length;
  }
  return pieces;
}

export function detectNormalizedAwsKeyIds(text: string): RawFinding[] {
  const findings: RawFinding[] = [];
  const pieces = piecesOf(text);
  for (let first = 0; first < pieces.length; first++) {
    if (!/^A(?:S|K|$)/.test(pieces[first]!.chars)) continue;
    let chars = '';
    let upper = false;
    let lower = false;
    for (let last = first; last < pieces.length; last++) {
      const piece = pieces[last]!;
      chars += piece.chars;
      upper ||= piece.upper;
      lower ||= piece.lower;
      if (chars.length >= KEY_ID_LENGTH || !piece.joinsNext) {
        if (KEY_ID.test(chars) && /\d/.test(chars.slice(4)) && !(upper && lower)) {
          findings.push({
            kind: 'secret',
            rule: 'aws_access_key_id',
            start: pieces[first]!.start,
            end: piece.end,
            description: 'AWS access key ID (spaced, split, lower-case or written with look-alike letters)',
          });
        }
        break;
      }
    }
  }
  return findings;
}

import fc from 'fast-check';
import { confusablesMap } from 'confusables';
import { I_OR_L } from '../../../src/safety/confusable-fold';
import { detectNormalizedAwsKeyIds } from '../../../src/safety/unsafe-content/rules/aws-key-id-normalized.rule';

/**
 * The rule's first implementation (regular expressions per character), kept as the model its table-driven pass
 * must agree with on any text: same findings, same spans.
 */
function modelFindings(text: string): Array<[number, number]> {
  const keyId = /^(?:AKIA|ASIA)[A-Z2-7]{16}$/;
  const separator = /^[\s.\-_|·\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
  const fold = (char: string): string | null => {
    if (/^[A-Za-z0-9]$/.test(char)) return char.toUpperCase();
    if (char.charCodeAt(0) < 0x80) return null;
    if (I_OR_L.has(char)) return 'I';
    const mapped = confusablesMap.get(char);
    return mapped !== undefined && /^[A-Za-z0-9]$/.test(mapped) ? mapped.toUpperCase() : null;
  };
  type Piece = {
    start: number;
    end: number;
    chars: string;
    upper: boolean;
    lower: boolean;
    joinsNext: boolean;
  };
  const pieces: Piece[] = [];
  let current: Piece | null = null;
  let separators = 0;
  let offset = 0;
  for (const char of text) {
    const folded = fold(char);
    if (folded !== null) {
      if (current === null || separators > 0) {
        if (current !== null) current.joinsNext = separators <= 4;
        current = { start: offset, end: offset, chars: '', upper: false, lower: false, joinsNext: false };
        pieces.push(current);
      }
      current.chars += folded;
      current.end = offset + char.length;
      if (/[A-Z]/.test(char)) current.upper = true;
      if (/[a-z]/.test(char)) current.lower = true;
      separators = 0;
    } else if (current !== null && separator.test(char)) separators++;
    else {
      current = null;
      separators = 0;
    }
    offset += char.length;
  }
  const found: Array<[number, number]> = [];
  for (let first = 0; first < pieces.length; first++) {
    if (!/^A(?:S|K|$)/.test(pieces[first].chars)) continue;
    let chars = '';
    let upper = false;
    let lower = false;
    for (let last = first; last < pieces.length; last++) {
      chars += pieces[last].chars;
      upper ||= pieces[last].upper;
      lower ||= pieces[last].lower;
      if (chars.length >= 20 || !pieces[last].joinsNext) {
        if (keyId.test(chars) && /\d/.test(chars.slice(4)) && !(upper && lower))
          found.push([pieces[first].start, pieces[last].end]);
        break;
      }
    }
  }
  return found;
}

describe('spaced and look-alike AWS access key ids (table-driven pass)', () => {
  // Key ids and their pieces, look-alikes, separators of every class, prose.
  const alphabet = [
    'AKIA',
    'ASIA',
    'akia',
    'asia',
    'АКІА',
    'ᴀᴋɪᴀ',
    'Α',
    'Κ',
    'Ι',
    'l',
    '|',
    '1',
    '7',
    '2',
    'Q',
    'z',
    'Z',
    'IOSFODNN7EXAMPLE',
    'iosfodnn7example',
    ' ',
    '  ',
    '-',
    '.',
    '_',
    '·',
    '\n',
    '\r\n',
    '\t',
    '\u2028',
    '\u200b',
    '\u00ad',
    'é',
    'ß',
    '😀',
    ',',
    ':',
    '"',
    'the key is ',
    'x',
  ];
  const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }).map((parts) => parts.join(''));

  it('finds exactly what the per-character model finds (fast-check, 3,000 texts)', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'grapheme', maxLength: 80 })), (input) => {
        const found = detectNormalizedAwsKeyIds(input).map((f): [number, number] => [f.start, f.end]);
        expect(found).toEqual(modelFindings(input));
      }),
      { numRuns: 3000 },
    );
  });

  it('still finds the known evasions and leaves prose alone', () => {
    for (const evasion of [
      'AKIA IOSF ODNN 7EXA MPLE',
      'akia-iosf-odnn-7exa-mple',
      'АКІАIOSFODNN7EXAMPLE',
      'AKIA\nIOSFODNN\n7EXAMPLE',
    ]) {
      expect(detectNormalizedAwsKeyIds(`the key: ${evasion} ok`)).toHaveLength(1);
    }
    expect(detectNormalizedAwsKeyIds('Asia is a continent; akin to a kiln, I said.')).toEqual([]);
  });
});

/**
 * The Porter stemming algorithm (M. F. Porter, 1980), as in Martin Porter's reference ANSI C implementation,
 * which Lucene's PorterStemFilter (and so Elasticsearch's `porter_stem`) and SQLite FTS5's `porter` tokenizer
 * follow, including its two departures from the paper (`bli` → `ble` and `logi` → `log` in step 2).
 *
 * Input: one lower-cased word. Words of one or two characters are returned as they are.
 */

class Stemmer {
  /** The word being stemmed; `k` is the index of its last character, `j` a general offset into it. */
  private b: string;
  private k: number;
  private j = 0;

  constructor(word: string) {
    this.b = word;
    this.k = word.length - 1;
  }

  stem(): string {
    if (this.k <= 1) return this.b;
    this.step1ab();
    if (this.k > 0) {
      this.step1c();
      this.step2();
      this.step3();
      this.step4();
      this.step5();
    }
    return this.b.slice(0, this.k + 1);
  }

  /** True when b[i] is a consonant ('y' is one at the start or after a vowel). */
  private cons(i: number): boolean {
    switch (this.b[i]) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
        return false;
      case 'y':
        return i === 0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /** The number of vowel-consonant sequences in b[0..j]. */
  private m(): number {
    let n = 0;
    let i = 0;
    for (;;) {
      if (i > this.j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    for (;;) {
      for (;;) {
        if (i > this.j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      for (;;) {
        if (i > this.j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  private vowelInStem(): boolean {
    for (let i = 0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  private doubleC(j: number): boolean {
    return j >= 1 && this.b[j] === this.b[j - 1] && this.cons(j);
  }

  /** consonant-vowel-consonant ending at i, the last consonant not w, x or y. */
  private cvc(i: number): boolean {
    if (i < 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.b[i];
    return ch !== 'w' && ch !== 'x' && ch !== 'y';
  }

  private ends(s: string): boolean {
    const length = s.length;
    if (length > this.k + 1) return false;
    if (this.b.slice(this.k - length + 1, this.k + 1) !== s) return false;
    this.j = this.k - length;
    return true;
  }

  private setTo(s: string): void {
    this.b = this.b.slice(0, this.j + 1) + s + this.b.slice(this.k + 1);
    this.k = this.j + s.length;
  }

  private r(s: string): void {
    if (this.m() > 0) this.setTo(s);
  }

  /** Plurals and -ed / -ing. */
  private step1ab(): void {
    if (this.b[this.k] === 's') {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setTo('i');
      else if (this.b[this.k - 1] !== 's') this.k--;
    }
    if (this.ends('eed')) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends('at')) this.setTo('ate');
      else if (this.ends('bl')) this.setTo('ble');
      else if (this.ends('iz')) this.setTo('ize');
      else if (this.doubleC(this.k)) {
        this.k--;
        const ch = this.b[this.k];
        if (ch === 'l' || ch === 's' || ch === 'z') this.k++;
      } else if (this.m() === 1 && this.cvc(this.k)) this.setTo('e');
    }
  }

  /** Terminal y → i when there is another vowel in the stem. */
  private step1c(): void {
    if (this.ends('y') && this.vowelInStem()) {
      this.b = `${this.b.slice(0, this.k)}i${this.b.slice(this.k + 1)}`;
    }
  }

  /** The first matching suffix of `rules` (in order) is replaced when m() > 0; later ones are not tried. */
  private replaceFirst(rules: ReadonlyArray<readonly [string, string]>): void {
    for (const [suffix, replacement] of rules) {
      if (this.ends(suffix)) {
        this.r(replacement);
        return;
      }
    }
  }

  private step2(): void {
    const rules = STEP2[this.b[this.k - 1]];
    if (rules !== undefined) this.replaceFirst(rules);
  }

  private step3(): void {
    const rules = STEP3[this.b[this.k]];
    if (rules !== undefined) this.replaceFirst(rules);
  }

  private step4(): void {
    const suffixes = STEP4[this.b[this.k - 1]];
    if (suffixes === undefined) return;
    let matched = false;
    for (const suffix of suffixes) {
      if (!this.ends(suffix)) continue;
      if (suffix === 'ion' && !(this.j >= 0 && (this.b[this.j] === 's' || this.b[this.j] === 't'))) {
        continue;
      }
      matched = true;
      break;
    }
    if (matched && this.m() > 1) this.k = this.j;
  }

  private step5(): void {
    this.j = this.k;
    if (this.b[this.k] === 'e') {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    if (this.b[this.k] === 'l' && this.doubleC(this.k) && this.m() > 1) this.k--;
  }
}

type Rules = Readonly<Record<string, ReadonlyArray<readonly [string, string]>>>;

/** Keyed by the penultimate character of the word. */
const STEP2: Rules = {
  a: [
    ['ational', 'ate'],
    ['tional', 'tion'],
  ],
  c: [
    ['enci', 'ence'],
    ['anci', 'ance'],
  ],
  e: [['izer', 'ize']],
  l: [
    ['bli', 'ble'],
    ['alli', 'al'],
    ['entli', 'ent'],
    ['eli', 'e'],
    ['ousli', 'ous'],
  ],
  o: [
    ['ization', 'ize'],
    ['ation', 'ate'],
    ['ator', 'ate'],
  ],
  s: [
    ['alism', 'al'],
    ['iveness', 'ive'],
    ['fulness', 'ful'],
    ['ousness', 'ous'],
  ],
  t: [
    ['aliti', 'al'],
    ['iviti', 'ive'],
    ['biliti', 'ble'],
  ],
  g: [['logi', 'log']],
};

/** Keyed by the last character of the word. */
const STEP3: Rules = {
  e: [
    ['icate', 'ic'],
    ['ative', ''],
    ['alize', 'al'],
  ],
  i: [['iciti', 'ic']],
  l: [
    ['ical', 'ic'],
    ['ful', ''],
  ],
  s: [['ness', '']],
};

/** Keyed by the penultimate character; the first suffix that ends the word decides (`ion` only after s or t). */
const STEP4: Readonly<Record<string, readonly string[]>> = {
  a: ['al'],
  c: ['ance', 'ence'],
  e: ['er'],
  i: ['ic'],
  l: ['able', 'ible'],
  n: ['ant', 'ement', 'ment', 'ent'],
  o: ['ion', 'ou'],
  s: ['ism'],
  t: ['ate', 'iti'],
  u: ['ous'],
  v: ['ive'],
  z: ['ize'],
};

/** The Porter stem of a lower-cased word. */
export function porterStem(word: string): string {
  return new Stemmer(word).stem();
}

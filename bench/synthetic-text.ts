/** Deterministic synthetic text for the search benchmark: every run indexes and queries the same words. */

/** mulberry32: a small deterministic generator in [0, 1), so every run (and test) sees the same numbers. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word-like text with Zipf-distributed words (rank r has weight 1 / (r + 1)). */
export class SyntheticText {
  private readonly words: string[];
  private readonly cumulative: Float64Array;
  private readonly next = seededRandom(20_260_521);

  constructor(vocabulary = 30_000) {
    const onsets = 'b c d f g h k l m n p r s t v z br dr gr kl pl st tr'.split(' ');
    const vowels = 'a e i o u ai ou'.split(' ');
    this.words = Array.from({ length: vocabulary }, (_, i) => {
      let n = i + onsets.length * vowels.length; // at least two syllables
      let word = '';
      while (n > 0) {
        word += onsets[n % onsets.length] + vowels[Math.floor(n / onsets.length) % vowels.length];
        n = Math.floor(n / (onsets.length * vowels.length));
      }
      return word;
    });
    this.cumulative = new Float64Array(vocabulary);
    let sum = 0;
    for (let r = 0; r < vocabulary; r++) this.cumulative[r] = sum += 1 / (r + 1);
  }

  word(minRank = 0): string {
    const total = this.cumulative[this.cumulative.length - 1];
    const floor = minRank === 0 ? 0 : this.cumulative[minRank - 1];
    const target = floor + this.next() * (total - floor);
    let lo = minRank;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo];
  }

  sentence(words: number): string {
    const text = Array.from({ length: words }, () => this.word()).join(' ');
    return `${text[0].toUpperCase()}${text.slice(1)}.`;
  }

  /** ~150 words (~1,000 characters): one chunk. */
  paragraph(): string {
    return Array.from({ length: 10 }, () => this.sentence(12 + Math.floor(this.next() * 6))).join(' ');
  }

  /** 2–5 words, mostly past the most frequent ranks (as people search). */
  query(): string {
    const length = 2 + Math.floor(this.next() * 4);
    return Array.from({ length }, (_, i) => this.word(i === 0 ? 0 : 50)).join(' ');
  }
}

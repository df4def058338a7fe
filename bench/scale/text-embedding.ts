/**
 * Deterministic test embeddings derived from text, with the structure real ones have (texts on one subject are
 * near, unrelated texts far): a seeded very sparse random projection (Li, Hastie and Church 2006) of the text's
 * log term counts. Every word's column is a sum of hashed sparse random columns (NONZEROS dimensions with random
 * signs, by a hash of the name and the seed): its own, and those of the meanings `meanings(word)` gives it with
 * their weights (as a model places the words of one subject near each other). A text's vector is the sum over
 * its distinct words of (1 + log count) × the word's weight × its column, normalized. The same text gives the
 * same vector in any process.
 */
import { createHash } from 'node:crypto';

const NONZEROS = 24;
const WORD = /[a-z0-9]+/g;

/** What a word means: weighted latent names (a subject), and how much the word itself weighs (idf-like). */
export interface WordMeaning {
  weight: number;
  meanings: ReadonlyArray<readonly [string, number]>;
}

export class TextEmbedding {
  private readonly columns = new Map<string, { dims: Uint32Array; signs: Float32Array }>();
  private readonly words = new Map<string, { dims: Uint32Array; values: Float32Array }>();

  constructor(
    readonly dimensions: number,
    private readonly meaning: (word: string) => WordMeaning = () => ({ weight: 1, meanings: [] }),
    private readonly seed = 'cairn-bench',
  ) {}

  embed(text: string): Float32Array {
    const counts = new Map<string, number>();
    for (const word of text.toLowerCase().match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    const vector = new Float32Array(this.dimensions);
    for (const [word, count] of counts) {
      const column = this.word(word);
      const weight = 1 + Math.log(count);
      for (let n = 0; n < column.dims.length; n++) vector[column.dims[n]] += weight * column.values[n];
    }
    let norm = 0;
    for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < vector.length; i++) vector[i] /= norm;
    return vector;
  }

  /** A word's column: its own hashed column plus its meanings', times its weight (sparse). */
  private word(word: string): { dims: Uint32Array; values: Float32Array } {
    let column = this.words.get(word);
    if (!column) {
      const { weight, meanings } = this.meaning(word);
      const parts: ReadonlyArray<readonly [string, number]> = [[word, 1], ...meanings];
      column = {
        dims: new Uint32Array(parts.length * NONZEROS),
        values: new Float32Array(parts.length * NONZEROS),
      };
      parts.forEach(([name, share], part) => {
        const sparse = this.column(name);
        for (let n = 0; n < NONZEROS; n++) {
          (column as { dims: Uint32Array }).dims[part * NONZEROS + n] = sparse.dims[n];
          (column as { values: Float32Array }).values[part * NONZEROS + n] = weight * share * sparse.signs[n];
        }
      });
      this.words.set(word, column);
    }
    return column;
  }

  private column(word: string): { dims: Uint32Array; signs: Float32Array } {
    let column = this.columns.get(word);
    if (!column) {
      const hash = createHash('sha256').update(`${this.seed}\u0000${word}`).digest();
      const dims = new Uint32Array(NONZEROS);
      const signs = new Float32Array(NONZEROS);
      for (let n = 0; n < NONZEROS; n++) {
        const value = hash.readUInt16LE((n % 16) * 2) ^ (n * 40503);
        dims[n] = (value * 2654435761 + n * 97) % this.dimensions;
        signs[n] = (hash[n % 32] >> (n % 8)) & 1 ? 1 : -1;
      }
      column = { dims, signs };
      this.columns.set(word, column);
    }
    return column;
  }
}

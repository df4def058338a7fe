import { createHash } from 'node:crypto';

/** Texts embedded per model call, as ModelEmbeddings batches them. */
const CALL_SIZE = 64;

/**
 * Vectors embedded recently, by a hash of their text, within a bound (maxChars of encoded vectors; the oldest go
 * first). A projection batch that fails on a model call is retried whole by the runner: with the memo, the retry
 * embeds only the texts the failed attempt had not embedded yet, instead of starting a batch of thousands of
 * chunks again (and failing again under load).
 */
export class EmbeddingMemo {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars = 64 * 1024 * 1024) {}

  /** The encoded vector of each text: remembered ones, and the others embedded CALL_SIZE at a time. */
  async vectors(
    texts: readonly string[],
    embed: (texts: string[]) => Promise<number[][]>,
    encode: (vector: readonly number[]) => string,
  ): Promise<string[]> {
    const keys = texts.map((text) => createHash('sha256').update(text).digest('base64'));
    const found = new Map<string, string>();
    const missing = new Map<string, string>();
    keys.forEach((key, n) => {
      const known = this.entries.get(key);
      if (known !== undefined) found.set(key, known);
      else missing.set(key, texts[n]);
    });
    const pending = [...missing].map(([key, text]) => ({ key, text }));
    for (let start = 0; start < pending.length; start += CALL_SIZE) {
      const slice = pending.slice(start, start + CALL_SIZE);
      const vectors = await embed(slice.map((m) => m.text));
      slice.forEach(({ key }, n) => {
        const encoded = encode(vectors[n]);
        found.set(key, encoded);
        this.remember(key, encoded);
      });
    }
    return keys.map((key) => found.get(key) as string);
  }

  private remember(key: string, encoded: string): void {
    this.entries.set(key, encoded);
    this.chars += encoded.length;
    for (const [oldest, value] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= value.length;
    }
  }
}

/**
 * The bodies of one search's hits, read when a hit's highlights are first asked for. A miss reads that hit's body
 * and the next few hits' (in rank order) in one statement: a caller highlighting its top results costs a
 * statement or two, not one per hit, and one highlighting none reads nothing. A body is unpacked (body-codec.ts)
 * when it is read, not when it is fetched.
 */
import { unpackBody } from './body-codec';

/** Bodies read per statement: the asked hit and the ones after it. */
export const BODY_PREFETCH = 16;

export class BodyReader {
  /** Bodies as stored, until read; then as text. */
  private readonly bodies = new Map<string, Buffer | string>();

  /** `ids`: the hits in rank order; `readMany`: the stored bodies of existing ids (a missing id is left out). */
  constructor(
    private readonly ids: readonly string[],
    private readonly readMany: (ids: string[]) => Map<string, Buffer | string>,
  ) {}

  /** The body of hit `id` ('' when the document is gone). */
  read(id: string): string {
    const known = this.bodies.get(id);
    if (typeof known === 'string') return known;
    if (known !== undefined) return this.unpacked(id, known);
    const wanted = [id];
    const asked = this.ids.indexOf(id);
    for (let rank = asked < 0 ? this.ids.length : asked + 1; rank < this.ids.length; rank++) {
      if (wanted.length >= BODY_PREFETCH) break;
      if (!this.bodies.has(this.ids[rank])) wanted.push(this.ids[rank]);
    }
    const found = this.readMany(wanted);
    for (const each of wanted) this.bodies.set(each, found.get(each) ?? '');
    return this.unpacked(id, this.bodies.get(id) ?? '');
  }

  private unpacked(id: string, stored: Buffer | string): string {
    const body = unpackBody(stored);
    this.bodies.set(id, body);
    return body;
  }
}

import { createHash } from 'node:crypto';
import { canonicalize as rfc8785 } from 'json-canonicalize';
import {
  GENESIS_HASH,
  hashEvent,
  stripChain,
  type ChainedFields,
} from '../../../src/infrastructure/event-store/hash-chain';

const METADATA = {
  organization_id: '1',
  correlation_id: 'c-1',
  causation_id: null,
  actor: 'connector:1',
  occurred_at: '2026-11-21T22:07:21.641Z',
  schema_version: 1,
};

function fields(data: Record<string, unknown>): ChainedFields {
  return {
    event_id: '0b7e2c1a-3f4d-4e5a-9b6c-7d8e9f0a1b2c',
    stream: 'recall-trace-7',
    revision: 0,
    type: 'RecallTraceRecorded',
    data,
    metadata: METADATA,
    prev_hash: GENESIS_HASH,
  };
}

/** The hash as the chain defines it, over a general RFC 8785 implementation's output. */
function referenceHash(chained: ChainedFields): string {
  const { prev_hash, metadata, ...rest } = chained;
  return createHash('sha256')
    .update(rfc8785({ ...rest, metadata: stripChain(metadata), prev_hash }))
    .digest('hex');
}

/** Deterministic generator of JSON values with the awkward parts: escapes, lone surrogates, exponents, -0. */
function jsonValues(seed: number): () => unknown {
  let state = seed;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const specials = ['"', '\\', '/', '\u2028', '\u2029', '\u007f', 'é', '😀', '\ufeff', '\ud800', '\udfff'];
  const numbers = [0, -0, 1, -1, 1e21, 1e-7, 123.456, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 2 ** 53];
  const char = (): string => {
    const pick = next();
    if (pick < 0.25) return String.fromCharCode(Math.floor(next() * 0x20));
    if (pick < 0.45) return specials[Math.floor(next() * specials.length)];
    return String.fromCharCode(0x20 + Math.floor(next() * 0x5f));
  };
  const text = (): string => Array.from({ length: Math.floor(next() * 10) }, char).join('');
  const value = (depth: number): unknown => {
    const pick = next();
    if (depth > 3 || pick < 0.35) {
      const leaf = [null, true, false, text(), numbers[Math.floor(next() * numbers.length)] * next()];
      return leaf[Math.floor(next() * leaf.length)];
    }
    if (pick < 0.6) return Array.from({ length: Math.floor(next() * 5) }, () => value(depth + 1));
    const object: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 6); i > 0; i--) object[text()] = value(depth + 1);
    return object;
  };
  return () => value(0);
}

describe('hash chain canonical JSON', () => {
  it('keeps the hash every stored event was chained with (pinned vector)', () => {
    const event = fields({
      trace_id: 7,
      query: 'refund "policy" naïve 😀 \u2028 line',
      score: 4.088710869828094,
      tiny: 1e-7,
      big: 1e21,
      results: [{ memory_item_id: 3, ids: [1, 2] }],
      none: null,
      yes: true,
    });
    expect(hashEvent(event)).toBe('eb3ececb94205b3e26ffb8709f17d64d3ef696febad23aa8546800fc4df4d13b');
    expect(hashEvent(event)).toBe(referenceHash(event));
  });

  it('hashes generated JSON values exactly as a general RFC 8785 implementation does', () => {
    const generate = jsonValues(20_261_121);
    const differing: unknown[] = [];
    for (let n = 0; n < 5_000; n++) {
      // Appends normalize data through a JSON round trip before hashing; so does this test.
      const data = JSON.parse(JSON.stringify({ value: generate(), [`key${n % 7}`]: generate() })) as Record<
        string,
        unknown
      >;
      const event = fields(data);
      if (hashEvent(event) !== referenceHash(event)) differing.push(data);
    }
    expect(differing).toEqual([]);
  });

  it('refuses what JSON cannot hold instead of hashing a stand-in', () => {
    expect(() => hashEvent(fields({ n: Number.NaN }))).toThrow();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => hashEvent(fields(cyclic))).toThrow(TypeError);
  });
});

import { createCipheriv, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { DataKey } from '../../../src/infrastructure/erasure/data-key-store.port';
import { ERASED_TEXT, isSealed, open, seal } from '../../../src/infrastructure/erasure/sealed-value';

const key = (id: string): DataKey => ({ key_id: id, key: randomBytes(32) });

describe('sealed values (AES-256-GCM under one or several data keys)', () => {
  const a = key('aaaaaaaaaaaaaaaa');
  const b = key('bbbbbbbbbbbbbbbb');
  const keys = new Map([a, b].map((k) => [k.key_id, k.key]));
  const byId = (id: string) => keys.get(id) ?? null;
  const large = { content: 'The clinic is open on Sunday. '.repeat(100), chunks: [{ text: 'x' }] };

  it('opens what it sealed: a string, small JSON and large JSON (compressed first), none of it in clear', () => {
    for (const value of ['a customer message', { title: 'Hours', n: 1 }, large]) {
      const sealed = seal(value, [a, b]);
      expect(isSealed(sealed)).toBe(true);
      expect(sealed).not.toContain('clinic');
      expect(open(sealed, byId)).toEqual(value);
    }
    // The large value is compressed before it is encrypted: smaller than its JSON.
    expect(seal(large, [a]).length).toBeLessThan(JSON.stringify(large).length / 4);
  });

  it('compresses a large value with Brotli (b), and still opens one an earlier build deflated (z)', () => {
    expect(seal(large, [a]).startsWith('\u0001sealed:1:b:aaaaaaaaaaaaaaaa:')).toBe(true);
    expect(seal({ title: 'Hours', n: 1 }, [a]).startsWith('\u0001sealed:1:j:')).toBe(true);
    // As the previous build wrote it: raw DEFLATE of the JSON, then AES-256-GCM (iv ‖ tag ‖ ciphertext).
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', a.key, iv);
    const body = Buffer.concat([
      cipher.update(deflateRawSync(Buffer.from(JSON.stringify(large)))),
      cipher.final(),
    ]);
    const earlier = `\u0001sealed:1:z:${a.key_id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    expect(open(earlier, byId)).toEqual(large);
  });

  it('reads as erased once any of its keys is gone', () => {
    const text = seal('a customer message', [a, b]);
    const json = seal(large, [a, b]);
    const withoutB = (id: string) => (id === b.key_id ? null : byId(id));
    expect(open(text, withoutB)).toBe(ERASED_TEXT);
    expect(open(json, withoutB)).toBeNull();
  });

  it('refuses an edited ciphertext (authentication fails) instead of reading it', () => {
    const sealed = seal('a customer message', [a]);
    const at = sealed.length - 5;
    const edited = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(() => open(edited, byId)).toThrow();
  });
});

import { MongoServerError } from 'mongodb';
import { isDuplicateKey, toSafeInteger } from '../../../src/infrastructure/read-store/mongo/mongo-values';

describe('MongoDB read store value checks (without importing the driver)', () => {
  it("recognizes the driver's own duplicate key error, and nothing else", () => {
    expect(isDuplicateKey(new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }))).toBe(
      true,
    );
    // A write conflict (retried by transactions) is not a duplicate key.
    expect(isDuplicateKey(new MongoServerError({ message: 'WriteConflict', code: 112 }))).toBe(false);
    expect(isDuplicateKey(new Error('E11000 duplicate key error'))).toBe(false);
    expect(isDuplicateKey({ code: 11000 })).toBe(false);
    expect(isDuplicateKey(null)).toBe(false);
  });

  it('reads stored numbers and bigints as safe integers, refusing anything else', () => {
    expect(toSafeInteger(42, 'last')).toBe(42);
    expect(toSafeInteger(42n, 'last')).toBe(42);
    expect(() => toSafeInteger(2 ** 53, 'last')).toThrow(RangeError);
    expect(() => toSafeInteger(1.5, 'last')).toThrow(/last is not a safe integer/);
    expect(() => toSafeInteger('7', 'last')).toThrow(RangeError);
  });
});

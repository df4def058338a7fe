import fc from 'fast-check';
import {
  asciiDigits,
  extractFigures,
  numberValue,
  unsupportedFigures,
} from '../../../src/grounding/claim-figures';
import { numberWordValue } from '../../../src/grounding/figure-words';

const kindsMissing = (claim: string, quote: string) => unsupportedFigures(claim, [quote]).map((f) => f.kind);

describe('typed facts: a claim states only the figures of its own quotes, by kind, value and unit', () => {
  it.each([
    ['We close at 5:30 pm.', 'We close at 17:30.'],
    ['We close at 17:30.', 'We close at 5:30 pm.'],
    ['On Saturday we close at 1 pm.', 'Saturday 9–13'],
    ['The rental costs €35 per day.', 'The rental costs 35 € per day.'],
    ['Shipping costs $1,500.', 'Shipping costs $1500.'],
    ['Refunds reach your card within five business days.', 'within 5 business days'],
    ['It takes one business day.', 'It takes 1 business day.'],
    ['Parking is free for an hour.', 'Parking is free for 1 hour.'],
    ['Gift cards never expire.', 'Gift cards are valid forever.'],
    ['Thirty-five seats are left.', '35 seats are left.'],
    ['We answer within 24 hours.', 'Wir antworten innerhalb von ٢٤ hours.'],
    ['Call 415-555-2671.', 'Call +1 (415) 555 2671.'],
    ['Open Mon–Fri.', 'Open Monday to Friday.'],
    ['Open on Tuesday.', 'Open Monday to Friday.'],
    ['The offer ends on 18/04/2026.', 'The offer ends on 18.04.2026.'],
    ['The offer ends on 03/04/2026.', 'The offer ends on 03/04/2026.'],
    ['Fee: 2.5%.', 'a fee of 2,5 %'],
    ['Abrimos de lunes a viernes.', 'Abrimos de lunes a viernes.'],
    ['Visit acme-shop.com/help.', 'See https://www.acme-shop.com/help for more.'],
  ])('supported: %j from %j', (claim, quote) => {
    expect(kindsMissing(claim, quote)).toEqual([]);
  });

  it.each([
    ['We are open until 9 am.', 'We are open until 9 pm.', 'time'],
    ['We close at 15:00.', 'Orders ship within 15 minutes.', 'time'],
    ['We are open Mon–Sat.', 'We are open Mon–Fri.', 'weekday'],
    ['Standard shipping costs 99 cents.', 'Standard shipping costs $4.99.', 'amount'],
    ['It is 99.', 'It costs $4.99.', 'number'],
    ['Delivery takes 3 to 6 business days.', 'Delivery takes 3 to 5 business days.', 'duration'],
    ['Call +1 415 555 2672.', 'Call +1 415 555 2671.', 'phone'],
    ['The fee is $1.500.', 'The fee is $1,500.', 'amount'],
    ['The fee is €1.500.', 'The fee is €1,500.', 'amount'],
    ['The fee is 50 €.', 'The fee is $50.', 'amount'],
    ['The fee is SEK 50.', 'The fee is $50.', 'amount'],
    ['Refunds take 5 calendar days.', 'Refunds take 5 business days.', 'duration'],
    ['Refunds take 5 days.', 'Refunds take 5 business days.', 'duration'],
    ['It costs €35 per hour.', 'It costs €35 per day.', 'amount'],
    ['It costs €35.', 'It costs €35 per day.', 'amount'],
    ['Support answers at 9:00 Eastern.', 'Support answers at 9:00 CET.', 'zone'],
    ['We close at 5 pm.', 'We close at 17:30.', 'time'],
    ['It takes one business day.', 'It takes 2 business days.', 'duration'],
    ['Parking is free for an hour.', 'Parking is free for 2 hours.', 'duration'],
    ['Gift cards never expire.', 'Gift cards are valid for 2 years.', 'duration'],
    ['We answer within ٤٨ hours.', 'We answer within 24 hours.', 'duration'],
    ['We answer within 4\u200B8 hours.', 'We answer within 24 hours.', 'duration'],
    ['The offer ends on 04/03/2026.', 'The offer ends on 03/04/2026.', 'date'],
    ['The offer ends on 2026-04-03.', 'The offer ends on 03/04/2026.', 'date'],
    ['Thirty-six seats are left.', '35 seats are left.', 'number'],
    ['Email help@acme.com.', 'Email support@acme.com.', 'email'],
    ['Visit acme-shop.com/free.', 'See https://www.acme-shop.com/help for more.', 'url'],
    ['A 20% fee applies.', 'A 15% fee applies.', 'percent'],
  ])('refused: %j from %j (%s)', (claim, quote, kind) => {
    expect(kindsMissing(claim, quote)).toContain(kind);
  });

  it('every Unicode decimal digit reads as its ASCII digit', () => {
    const zeros = [0x30, 0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0xff10];
    fc.assert(
      fc.property(
        fc.constantFrom(...zeros),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 }),
        (zero, digits) => {
          const text = digits.map((d) => String.fromCodePoint(zero + d)).join('');
          return asciiDigits(text.normalize('NFKC')) === digits.join('');
        },
      ),
    );
  });

  it('a number keeps its value in every grouping its currency makes unambiguous, and an ambiguous one only its form', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 999_999_999 }), (n) => {
        const us = n.toLocaleString('en-US');
        const de = n.toLocaleString('de-DE');
        const plain = numberValue(us, 'usd') === String(n) && numberValue(String(n)) === String(n);
        const grouped =
          n >= 1_000_000 ? numberValue(de, 'eur') === String(n) : numberValue(de, 'eur') === `~${de}`;
        return plain && grouped;
      }),
    );
  });

  it('number words: every compound from twenty-one to ninety-nine', () => {
    const tens = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
    const units = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 8 }), (t, u) => {
        const word = `${tens[t]}-${units[u]}`;
        const value = (t + 2) * 10 + u + 1;
        return (
          numberWordValue(word) === value &&
          extractFigures(`${word} seats`).some((f) => f.kind === 'number' && f.key === String(value))
        );
      }),
    );
  });

  it('a time of day: am/pm and 24 h agree, and am is never pm', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 59 }), (h, m) => {
        const mm = String(m).padStart(2, '0');
        const h24 = (h % 12) + 12;
        const pm = `${h}:${mm} pm`;
        return (
          kindsMissing(`We close at ${pm}.`, `We close at ${h24}:${mm}.`).length === 0 &&
          kindsMissing(`We close at ${h}:${mm} am.`, `We close at ${pm}.`).includes('time')
        );
      }),
    );
  });

  it('an amount differing in value, currency or rate is refused', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom('$', '€', '£'),
        (n, delta, symbol) =>
          kindsMissing(`It costs ${symbol}${n + delta}.`, `It costs ${symbol}${n}.`).includes('amount') &&
          kindsMissing(`It costs ${symbol}${n} per hour.`, `It costs ${symbol}${n} per day.`).includes(
            'amount',
          ),
      ),
    );
  });
});

import {
  projectToolOutput,
  toolOutputStrings,
  validateToolInput,
  validateToolValue,
} from '../../../src/tools/tool-output';
import { findAbsoluteUris } from '../../../src/tools/tool-uri-scan';
import { definition, output, rejection } from './output-fixture';

describe('projectToolOutput: text', () => {
  it.each([
    'mailto:ops@example.com',
    'ftp://files.example.com/a',
    'data:text/html;base64,PHNjcmlwdD4=',
    'HTTPS:evil.example.com',
    'https:/evil.example.com',
    'https:\\\\evil.example.com',
    'ｈｔｔｐｓ：／／evil.example.com',
    'x-custom-app://open',
    'file:///etc/passwd',
    'call tel:+15551234567',
  ])('rejects the absolute URI in text: %s', (text) => {
    expect(rejection(output((v) => (v.items[0].note = text)))).toMatchObject({
      reason: 'absolute_uri',
      path: 'output.items[0].note',
    });
  });

  it.each([
    'Note: fragile',
    'Re: your order',
    '2026-07-17T10:30:00Z',
    'ratio 3:1',
    'www.example.com',
    'Tel: +1 555 0100',
  ])('keeps text that holds no absolute URI: %s', (text) =>
    expect(
      projectToolOutput(
        definition,
        output((v) => (v.items[0].note = text)),
      ).ok,
    ).toBe(true),
  );

  it('counts string length in code points', () => {
    expect(
      projectToolOutput(
        definition,
        output((v) => (v.order_id = '📦'.repeat(40))),
      ).ok,
    ).toBe(true);
    expect(rejection(output((v) => (v.order_id = '📦'.repeat(41)))).reason).toBe('too_long');
  });

  it('lists the strings of a projected output for an extra asynchronous scan', () => {
    expect(toolOutputStrings({ a: 'x', list: [{ b: 'y' }, 1], n: null })).toEqual({
      'output.a': 'x',
      'output.list[0].b': 'y',
    });
  });
});

describe('findAbsoluteUris', () => {
  it('finds every URI start, including ones inside words separated by punctuation', () => {
    expect(findAbsoluteUris('a https://x.example b (ftp://y.example)')).toEqual([2, 23]);
    expect(findAbsoluteUris('2026-07-17T10:30:00Z')).toEqual([]);
  });
});

describe('validateToolInput / validateToolValue', () => {
  it('accepts a valid input', () => {
    expect(validateToolInput(definition, { order_id: 'A-1', include_items: true })).toEqual([]);
  });

  it('reports every violation with input paths', () => {
    expect(validateToolInput(definition, { order_id: '', include_items: 'yes', extra: 1 })).toEqual([
      { path: 'input.extra', reason: 'unexpected_field', message: 'undeclared field (objects are closed)' },
      { path: 'input.order_id', reason: 'too_short', message: 'shorter than minLength 1' },
      { path: 'input.include_items', reason: 'invalid_type', message: 'expected boolean, got string' },
    ]);
    expect(validateToolInput(definition, {})).toEqual([
      { path: 'input.order_id', reason: 'missing_field', message: 'required field is missing' },
    ]);
  });

  it('rejects undefined, functions and non-finite numbers as non-JSON', () => {
    const schema = definition.input_schema;
    expect(validateToolValue(schema, { order_id: undefined }, 'v')[0].reason).toBe('invalid_type');
    expect(validateToolValue(schema, undefined, 'v')[0]).toMatchObject({ path: 'v', reason: 'invalid_type' });
  });
});

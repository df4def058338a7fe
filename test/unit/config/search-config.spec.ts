import { loadConfig } from '../../../src/config/config';
import { DEFAULT_ANN } from '../../../src/infrastructure/vectors/ann-graph';

describe('CAIRN_SEARCH_TITLE_BOOST', () => {
  it('defaults to 2 and takes a number from 0 to 10 with at most two decimals', () => {
    expect(loadConfig({}).searchTitleBoost).toBe(2);
    expect(loadConfig({ CAIRN_SEARCH_TITLE_BOOST: '1' }).searchTitleBoost).toBe(1);
    expect(loadConfig({ CAIRN_SEARCH_TITLE_BOOST: '0' }).searchTitleBoost).toBe(0);
    expect(loadConfig({ CAIRN_SEARCH_TITLE_BOOST: '1.25' }).searchTitleBoost).toBe(1.25);
    expect(loadConfig({ CAIRN_SEARCH_TITLE_BOOST: '10' }).searchTitleBoost).toBe(10);
  });

  it.each(['-1', '10.5', 'two', '1.234', '1e1', 'NaN', 'Infinity'])(
    'refuses %s at start, naming the variable',
    (raw) => {
      expect(() => loadConfig({ CAIRN_SEARCH_TITLE_BOOST: raw })).toThrow(
        expect.objectContaining({
          code: 'invalid_configuration',
          details: [expect.objectContaining({ field: 'CAIRN_SEARCH_TITLE_BOOST' })],
        }),
      );
    },
  );
});

describe('CAIRN_SEARCH_CACHE_MB', () => {
  it('defaults to 256 MiB per process and takes 16 to 4096', () => {
    expect(loadConfig({}).searchCacheMiB).toBe(256);
    expect(loadConfig({ CAIRN_SEARCH_CACHE_MB: '16' }).searchCacheMiB).toBe(16);
    expect(loadConfig({ CAIRN_SEARCH_CACHE_MB: '4096' }).searchCacheMiB).toBe(4096);
  });

  it.each(['15', '4097', '1.5', 'lots'])('refuses %s at start, naming the variable', (raw) => {
    expect(() => loadConfig({ CAIRN_SEARCH_CACHE_MB: raw })).toThrow(
      expect.objectContaining({
        code: 'invalid_configuration',
        details: [expect.objectContaining({ field: 'CAIRN_SEARCH_CACHE_MB' })],
      }),
    );
  });
});

describe('CAIRN_VECTOR_QUANTIZATION', () => {
  it('defaults to f16 and takes i8, bf16 and f32', () => {
    expect(loadConfig({}).vectorQuantization).toBe('f16');
    for (const kind of ['i8', 'f16', 'bf16', 'f32'] as const) {
      expect(loadConfig({ CAIRN_VECTOR_QUANTIZATION: kind }).vectorQuantization).toBe(kind);
    }
  });

  it.each(['f8', 'BF16', 'b1'])('refuses %j at start, naming the variable', (raw) => {
    expect(() => loadConfig({ CAIRN_VECTOR_QUANTIZATION: raw })).toThrow(
      expect.objectContaining({
        code: 'invalid_configuration',
        details: [expect.objectContaining({ field: 'CAIRN_VECTOR_QUANTIZATION' })],
      }),
    );
  });
});

describe('CAIRN_VECTOR_EF_SEARCH', () => {
  it('defaults to the graph default (640: recall@10 at least 0.95 at a million chunks, docs/benchmarks.md)', () => {
    expect(loadConfig({}).vectorEfSearch).toBe(640);
    expect(DEFAULT_ANN.expansionSearch).toBe(640);
    expect(loadConfig({ CAIRN_VECTOR_EF_SEARCH: '16' }).vectorEfSearch).toBe(16);
    expect(loadConfig({ CAIRN_VECTOR_EF_SEARCH: '4096' }).vectorEfSearch).toBe(4096);
  });

  it.each(['15', '4097', '512.5', 'wide'])('refuses %j at start, naming the variable', (raw) => {
    expect(() => loadConfig({ CAIRN_VECTOR_EF_SEARCH: raw })).toThrow(
      expect.objectContaining({
        code: 'invalid_configuration',
        details: [expect.objectContaining({ field: 'CAIRN_VECTOR_EF_SEARCH' })],
      }),
    );
  });
});

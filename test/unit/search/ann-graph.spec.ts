/** The HNSW graph wrapper (usearch) at every quantization Cairn accepts (CAIRN_VECTOR_QUANTIZATION). */
import { join } from 'node:path';
import { AnnGraph, DEFAULT_ANN, type Quantization } from '../../../src/infrastructure/vectors/ann-graph';
import { makeTempDir } from '../../support/temp-dir';

/** `count` random unit vectors of `dims` (a fixed linear congruential sequence). */
function vectors(count: number, dims: number): Float32Array {
  const out = new Float32Array(count * dims);
  let seed = 12345;
  for (let n = 0; n < out.length; n++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out[n] = seed / 2 ** 31 - 0.5;
  }
  for (let row = 0; row < count; row++) {
    const v = out.subarray(row * dims, (row + 1) * dims);
    const norm = Math.hypot(...v);
    for (let i = 0; i < dims; i++) v[i] /= norm;
  }
  return out;
}

describe('AnnGraph', () => {
  it.each<Quantization>(['f32', 'f16', 'bf16', 'i8'])(
    'at %s finds each vector itself first, in memory and viewed from its saved file',
    (quantization) => {
      const temp = makeTempDir('cairn-ann-');
      try {
        const dims = 64;
        const count = 500;
        const data = vectors(count, dims);
        const keys = Array.from({ length: count }, (_, n) => n + 1);
        const parameters = { ...DEFAULT_ANN, quantization, dimensions: dims };
        const graph = AnnGraph.empty(parameters);
        graph.add(keys, data);
        const file = join(temp.dir, 'graph.usearch');
        graph.save(file);
        const viewed = AnnGraph.view(parameters, file);
        for (const g of [graph, viewed]) {
          expect(g.size).toBe(count);
          for (const key of [1, 250, 500]) {
            const [best] = g.search(data.subarray((key - 1) * dims, key * dims), 5);
            expect(best.key).toBe(key);
            expect(best.distance).toBeLessThan(0.02);
          }
        }
      } finally {
        temp.cleanup();
      }
    },
  );
});

import { chunkDocument } from '../../../src/ingestion/chunking';

describe('chunkDocument', () => {
  it('keeps sections apart and records the heading path', () => {
    const chunks = chunkDocument(
      '# Pricing\n\nA *cleaning* is $90.\n\n## Kids\n\nUnder 12: [free](https://x.y).\n\n# Hours\n\nMon–Fri.',
      'markdown',
    );
    expect(chunks).toEqual([
      { ordinal: 0, heading: 'Pricing', text: 'A cleaning is $90.' },
      { ordinal: 1, heading: 'Pricing > Kids', text: 'Under 12: free.' },
      { ordinal: 2, heading: 'Hours', text: 'Mon–Fri.' },
    ]);
  });

  it('packs paragraphs of one section while they fit, and never exceeds the bound', () => {
    const paragraph = 'word '.repeat(50).trim();
    const text = Array.from({ length: 20 }, () => paragraph).join('\n\n');
    const chunks = chunkDocument(text, 'text', 600);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(600);
    expect(chunks[0].text.split('\n\n')).toHaveLength(2);
  });

  it('splits an overlong paragraph at sentence and word bounds', () => {
    const long = Array.from({ length: 100 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    const chunks = chunkDocument(long, 'text', 200);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(200);
    expect(
      chunks
        .map((c) => c.text)
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(long);
    const noSpaces = 'x'.repeat(1000);
    expect(chunkDocument(noSpaces, 'text', 300).map((c) => c.text.length)).toEqual([300, 300, 300, 100]);
  });

  it('ignores blank input', () => {
    expect(chunkDocument(' \n\n ', 'markdown')).toEqual([]);
    expect(chunkDocument('', 'text')).toEqual([]);
  });
});

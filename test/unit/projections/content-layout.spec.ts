import { chunkDocument, MAX_CHUNK_CHARS } from '../../../src/ingestion/chunking';
import { assembleContent, layoutOf, type ContentLayout } from '../../../src/projections/content-layout';

/** Characters of the content the layout stores itself (its strings): what is not in the chunks' text. */
const storedChars = (layout: ContentLayout): number =>
  layout.reduce<number>((sum, op) => sum + (typeof op === 'string' ? op.length : 0), 0);

const HANDBOOK = `# Clinic handbook

Welcome to the **Lake Street** clinic. See [our site](https://example.org/a/very/long/path?with=query&and=more) for maps.

## Opening hours

Monday to Friday: 08:00–18:00.\u0020\u0020
Saturday: 09:00–12:00 _by appointment_.

Closed on Sundays and public holidays 🎉.

## Pricing > Cleanings

\`\`\`
cleaning   CHF 120
whitening  CHF 300
\`\`\`

- first item with \`code\`
- second item ![logo](https://example.org/logo.png)

### Notes

${'A long sentence about the clinic and its patients. '.repeat(60)}
`;

const TEXT = 'First paragraph,\r\nstill the first.  \r\n\r\n\r\n   Second  paragraph\t \n\nthird\n\n\n';

function roundTrip(content: string, format: 'markdown' | 'text'): ContentLayout {
  const chunks = chunkDocument(content, format);
  const layout = layoutOf(content, chunks);
  // Through JSON, as the read model stores it.
  const stored = JSON.parse(JSON.stringify({ layout, chunks })) as {
    layout: ContentLayout;
    chunks: typeof chunks;
  };
  expect(assembleContent(stored.layout, stored.chunks) === content).toBe(true);
  return layout;
}

describe('content layout (an item’s content rebuilt from its chunks)', () => {
  it('rebuilds a multi-section Markdown document byte for byte, storing only what the chunks lack', () => {
    const layout = roundTrip(HANDBOOK, 'markdown');
    expect(chunkDocument(HANDBOOK, 'markdown').length).toBeGreaterThan(3);
    // Headings, markup, link addresses and separators: a small share of the document.
    expect(storedChars(layout)).toBeLessThan(HANDBOOK.length * 0.2);
  });

  it('rebuilds plain text with CRLF, trailing blanks and blank-line runs byte for byte', () => {
    const layout = roundTrip(TEXT, 'text');
    expect(storedChars(layout)).toBeLessThan(TEXT.length / 2);
  });

  it('rebuilds a paragraph longer than a chunk (split at sentences, packed again)', () => {
    const long = `${'Word '.repeat(400)}end. ${'Another sentence here. '.repeat(120)}`;
    expect(long.length).toBeGreaterThan(MAX_CHUNK_CHARS * 2);
    const layout = roundTrip(long, 'text');
    expect(storedChars(layout)).toBeLessThan(long.length * 0.05);
  });

  it('rebuilds content the chunks do not follow at all (falls back to storing it)', () => {
    const content = 'Something entirely different.';
    const chunks = [{ text: 'zzzz unrelated chunk text zzzz' }];
    expect(assembleContent(layoutOf(content, chunks), chunks)).toBe(content);
    expect(assembleContent(layoutOf('', []), [])).toBe('');
    expect(assembleContent(layoutOf('only content', []), [])).toBe('only content');
  });

  it('never splits a surrogate pair into a stored string', () => {
    const content = 'Smile 😀 here and 😃 there';
    const chunks = [{ text: 'Smile 😃 here and 😀 there' }];
    const layout = layoutOf(content, chunks);
    for (const op of layout) {
      if (typeof op === 'string') expect(op).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
    expect(assembleContent(layout, chunks)).toBe(content);
  });

  it('rebuilds random documents of every shape byte for byte', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      '# Head',
      '## Sub',
      'word',
      '**bold**',
      '[x](http://y)',
      '\n',
      '\n\n',
      '  ',
      '\r\n',
      '`c`',
      '. ',
      'é',
      '😀',
    ];
    for (let n = 0; n < 200; n++) {
      const length = Math.floor(random() * 300);
      const content = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join(' ');
      for (const format of ['markdown', 'text'] as const) roundTrip(content, format);
    }
  });
});

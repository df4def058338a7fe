import { join } from 'node:path';
import { prepareContent } from '../../../src/commands/memory/document-content';
import { extractHtml } from '../../../src/ingestion/readers/html-reader';
import { makeTempDir } from '../../support/temp-dir';
import { readAll, readOne, skips, writeTree } from './reader-helpers';

const PAGE = `<!doctype html>
<html><head>
  <title>Cleaning prices</title>
  <style>.price { color: red } body::after { content: "STYLE-LEAK" }</style>
  <script>window.secret = "SCRIPT-LEAK";</script>
  <link rel="canonical" href="https://clinic.example.com/prices">
</head>
<body>
  <nav><a href="/">Home</a> <a href="/about">NAV-LEAK about us</a></nav>
  <main>
    <article>
      <h1>Cleaning prices</h1>
      <p>Adults pay <strong>$80</strong> for a cleaning.<br>Children pay $50.</p>
      <h2>Insurance</h2>
      <p>We accept most dental plans, and we file the claim for you at the front desk.</p>
      <ul><li>Delta Dental</li><li>Aetna</li></ul>
      <script>document.write("INLINE-SCRIPT-LEAK")</script>
      <form><input value="FORM-LEAK"><button>Send FORM-LEAK</button></form>
      <table><tr><th>Service</th><th>Price</th></tr><tr><td>Whitening</td><td>$200</td></tr></table>
    </article>
  </main>
  <footer>FOOTER-LEAK Copyright 2026</footer>
</body></html>`;

describe('HTML reader', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  it('keeps the main text with its headings and paragraph breaks; no script, style, nav or footer text', () => {
    const page = extractHtml(PAGE);
    expect(page.title).toBe('Cleaning prices');
    expect(page.url).toBe('https://clinic.example.com/prices');
    expect(page.text).not.toMatch(/LEAK/);
    expect(page.text).toContain('Adults pay $80 for a cleaning.\nChildren pay $50.');
    expect(page.text).toMatch(/^## Insurance$/m);
    expect(page.text).toContain('\n\n- Delta Dental\n\n- Aetna');
    expect(page.text).toContain('Whitening | $200');
  });

  it('falls back to the body when Readability finds nothing, still without scripts and navigation', () => {
    const page = extractHtml(
      '<html><body><nav>NAV-LEAK</nav><div>Short note.</div><script>SCRIPT-LEAK</script></body></html>',
    );
    expect(page.text).toBe('Short note.');
    expect(page.title).toBeNull();
  });

  it('titles: <title>, else the first <h1>, else the file name', async () => {
    writeTree(temp.dir, {
      'site/a.html': '<title>From title</title><p>Text a.</p>',
      'site/b.htm': '<body><h1>From <em>heading</em></h1><p>Text b.</p></body>',
      'site/c.html': '<body><p>Text c.</p></body>',
    });
    const entries = await readAll(join(temp.dir, 'site'));
    expect(entries.map((e) => e.kind === 'document' && [e.document.title, e.explicit_title])).toEqual([
      ['From title', true],
      ['From heading', true],
      ['c', false],
    ]);
  });

  it('is chunked by its headings', async () => {
    writeTree(temp.dir, { 'page.html': PAGE });
    const { document } = await readOne(join(temp.dir, 'page.html'));
    expect(document.format).toBe('markdown');
    expect(document.source_uri).toBe('https://clinic.example.com/prices');
    const headings = prepareContent(document).pieces.map((piece) => piece.heading);
    expect(headings).toContain('Insurance');
  });

  it('skips pages without text', async () => {
    writeTree(temp.dir, {
      'blank/empty.html': '<html><head><script>x()</script></head><body> </body></html>',
    });
    expect(skips(await readAll(join(temp.dir, 'blank'))).map((s) => s.reason)).toEqual(['empty']);
  });
});

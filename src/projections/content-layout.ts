/**
 * An item's content stored once: the read model keeps its chunks (search and replies read them) and, instead of
 * the content, a layout that rebuilds the content from the chunks' text. The chunks are the content's text in
 * order, with markup, headings and whitespace changed (src/ingestion/chunking.ts), so the layout is what differs:
 *
 * - a positive number n: the next n characters of the chunks' text (all chunks' text concatenated in order);
 * - a negative number −n: n characters of the chunks' text that the content does not have (skipped);
 * - a string: characters of the content that the chunks' text does not have (markup, headings, separators).
 *
 * Every copy is of characters equal in both, every other content character is a string, so assembleContent()
 * returns the content byte for byte; a layout whose string would hold half of a surrogate pair is replaced by the
 * whole content as one string.
 */

/** Copies, skips and literal strings, in order (see the file comment). */
export type ContentLayout = Array<number | string>;

interface ChunkText {
  text: string;
}

/** Characters that must match for the content and the chunks' text to be taken as aligned again. */
const ANCHOR_CHARS = 8;
/** How far ahead in the content a realignment looks (markup, a link's address, a heading line). */
const CONTENT_LOOKAHEAD = 4096;
/** How far ahead in the chunks' text a realignment looks (separators a packed chunk added). */
const CHUNK_LOOKAHEAD = 32;

/** Characters compared at once while the two agree. */
const BLOCK_CHARS = 64;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The layout that rebuilds `content` from `chunks` (their text in order). */
export function layoutOf(content: string, chunks: readonly ChunkText[]): ContentLayout {
  const ends: number[] = [];
  let end = 0;
  for (const chunk of chunks) ends.push((end += chunk.text.length));
  const layout = align(content, chunkStream(chunks), ends);
  // A string holding half of a surrogate pair would not survive every store's JSON: the content whole instead.
  if (layout.every((op) => typeof op === 'number' || !LONE_SURROGATE.test(op))) return layout;
  return [content];
}

/** The content a layout rebuilds from the chunks it was made with. */
export function assembleContent(layout: ContentLayout, chunks: readonly ChunkText[]): string {
  return assemble(layout, chunkStream(chunks));
}

function chunkStream(chunks: readonly ChunkText[]): string {
  return chunks.map((chunk) => chunk.text).join('');
}

function assemble(layout: ContentLayout, stream: string): string {
  const parts: string[] = [];
  let at = 0;
  for (const op of layout) {
    if (typeof op === 'string') parts.push(op);
    else if (op > 0) {
      parts.push(stream.slice(at, at + op));
      at += op;
    } else at -= op;
  }
  return parts.join('');
}

/**
 * Greedy alignment: copy while the two agree; where they differ, the nearest point (fewest characters passed over
 * in both) from which ANCHOR_CHARS characters agree again, passing the content's characters as a string and the
 * chunks' as a skip. With no such point within the lookahead, the lookahead's content is a string.
 */
function align(content: string, stream: string, chunkEnds: readonly number[]): ContentLayout {
  const layout: ContentLayout = [];
  const literal = (text: string): void => {
    if (text === '') return;
    const last = layout.length - 1;
    if (last >= 0 && typeof layout[last] === 'string') layout[last] += text;
    else layout.push(text);
  };
  let i = 0;
  let j = 0;
  let chunk = 0;
  while (i < content.length) {
    if (j >= stream.length) {
      literal(content.slice(i));
      break;
    }
    let n = 0;
    // Whole blocks first (native string comparison), then character by character.
    while (
      j + n + BLOCK_CHARS <= stream.length &&
      content.startsWith(stream.slice(j + n, j + n + BLOCK_CHARS), i + n)
    )
      n += BLOCK_CHARS;
    while (
      i + n < content.length &&
      j + n < stream.length &&
      content.charCodeAt(i + n) === stream.charCodeAt(j + n)
    )
      n += 1;
    if (n > 0) {
      layout.push(n);
      i += n;
      j += n;
      continue;
    }
    const window = content.slice(i, i + CONTENT_LOOKAHEAD + ANCHOR_CHARS);
    let best: { content: number; stream: number } | null = null;
    while (chunkEnds[chunk] <= j) chunk += 1;
    let anchorChunk = chunk;
    for (let skip = 0; skip <= CHUNK_LOOKAHEAD && j + skip < stream.length; skip++) {
      if (best !== null && skip >= best.content + best.stream) break;
      while (chunkEnds[anchorChunk] <= j + skip) anchorChunk += 1;
      // An anchor never crosses into the next chunk: the content has a separator there.
      const anchorEnd = Math.min(j + skip + ANCHOR_CHARS, chunkEnds[anchorChunk]);
      const found = window.indexOf(stream.slice(j + skip, anchorEnd));
      if (found >= 0 && (best === null || found + skip < best.content + best.stream)) {
        best = { content: found, stream: skip };
      }
    }
    if (best === null) {
      const passed = Math.min(CONTENT_LOOKAHEAD, content.length - i);
      literal(content.slice(i, i + passed));
      i += passed;
      continue;
    }
    literal(content.slice(i, i + best.content));
    i += best.content;
    if (best.stream > 0) {
      layout.push(-best.stream);
      j += best.stream;
    }
  }
  return layout;
}

import MarkdownIt from 'markdown-it';

export interface TextChunk {
  ordinal: number;
  heading: string | null;
  text: string;
}

/** Chunks stay under this many characters (a paragraph longer than that is split at sentence/word bounds). */
export const MAX_CHUNK_CHARS = 1200;

const markdown = new MarkdownIt({ html: false, linkify: false });

interface Block {
  heading: string | null;
  text: string;
}

/**
 * Splits a document into chunks that respect headings and paragraphs: a chunk never spans two sections, packs
 * whole paragraphs while they fit, and is at most `maxChars` long.
 */
export function chunkDocument(
  content: string,
  format: 'markdown' | 'text',
  maxChars = MAX_CHUNK_CHARS,
): TextChunk[] {
  const blocks = format === 'markdown' ? markdownBlocks(content) : textBlocks(content);
  const packed: Block[] = [];
  for (const block of blocks) {
    for (const piece of splitLong(block.text, maxChars)) {
      const last = packed[packed.length - 1];
      if (last && last.heading === block.heading && last.text.length + 2 + piece.length <= maxChars) {
        last.text += `\n\n${piece}`;
      } else {
        packed.push({ heading: block.heading, text: piece });
      }
    }
  }
  return packed.map((block, ordinal) => ({ ordinal, heading: block.heading, text: block.text }));
}

/** Paragraph-like blocks of a Markdown document with their heading path; markup reduced to text. */
function markdownBlocks(content: string): Block[] {
  const tokens = markdown.parse(content, {});
  const path: string[] = [];
  const blocks: Block[] = [];
  let level = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'heading_open') {
      level = Number(token.tag.slice(1));
      const title = plainInline(tokens[i + 1]?.content ?? '');
      path.length = Math.min(path.length, level - 1);
      while (path.length < level - 1) path.push('');
      path.push(title);
      i += 2;
      continue;
    }
    const heading = path.filter(Boolean).join(' > ') || null;
    if (token.type === 'inline' && token.content.trim())
      blocks.push({ heading, text: plainInline(token.content) });
    else if ((token.type === 'fence' || token.type === 'code_block') && token.content.trim()) {
      blocks.push({ heading, text: token.content.trimEnd() });
    }
  }
  return blocks;
}

function textBlocks(content: string): Block[] {
  return content
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((text) => ({ heading: null, text: text.replace(/[ \t]+\n/g, '\n').trim() }))
    .filter((block) => block.text !== '');
}

/** Inline Markdown as readable text: links keep their label, emphasis and code marks go. */
function plainInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .trim();
}

/** Splits text longer than max at sentence ends, then at spaces, then hard. */
function splitLong(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const sentences = text.match(/[^.!?\n]+(?:[.!?]+|\n|$)\s*/g) ?? [text];
  const parts: string[] = [];
  let buffer = '';
  for (const sentence of sentences) {
    if ((buffer + sentence).length <= max) {
      buffer += sentence;
      continue;
    }
    if (buffer.trim()) parts.push(buffer.trim());
    buffer = '';
    let rest = sentence;
    while (rest.length > max) {
      const cut = rest.lastIndexOf(' ', max) > max / 2 ? rest.lastIndexOf(' ', max) : max;
      parts.push(rest.slice(0, cut).trim());
      rest = rest.slice(cut);
    }
    buffer = rest;
  }
  if (buffer.trim()) parts.push(buffer.trim());
  return parts;
}

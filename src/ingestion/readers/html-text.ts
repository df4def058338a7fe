/**
 * Turns a DOM subtree into Markdown-shaped text, so the chunker sees the page's headings and paragraphs:
 * headings become `#` lines, paragraphs/list items/table rows become blocks separated by blank lines, `<pre>`
 * becomes a fenced block. Scripts, styles, navigation, forms and hidden elements never contribute text.
 */

import type { DomElement, DomNode } from './dom';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** Elements whose text is never content. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'map',
  'form',
  'button',
  'select',
  'option',
  'textarea',
  'input',
  'nav',
  'footer',
  'aside',
  'dialog',
  'head',
  'title',
  'meta',
  'link',
]);

/** Elements that start and end a block (everything else is inline). */
const BLOCKS = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'header',
  'hgroup',
  'hr',
  'html',
  'li',
  'main',
  'ol',
  'p',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);

/** A line break inside a block (`<br>`), kept through whitespace collapsing. */
const BREAK = '\uE000';

class BlockWriter {
  readonly blocks: string[] = [];
  private line = '';
  private prefix = '';

  text(value: string): void {
    this.line += value;
  }

  /** The next block written starts with `prefix` (a list marker). */
  startItem(prefix: string): void {
    this.flush();
    this.prefix = prefix;
  }

  flush(headingLevel = 0): void {
    const text = collapse(this.line);
    this.line = '';
    if (text === '') return;
    if (headingLevel > 0) this.blocks.push(`${'#'.repeat(headingLevel)} ${text.replace(/\n/g, ' ')}`);
    else this.blocks.push(`${this.prefix}${text}`);
    this.prefix = '';
  }

  raw(block: string): void {
    this.flush();
    if (block.trim() !== '') this.blocks.push(block);
  }
}

/** The Markdown-shaped text of `root` (blocks separated by blank lines). */
export function htmlToText(root: DomNode): string {
  const writer = new BlockWriter();
  walk(root, writer);
  writer.flush();
  return writer.blocks.join('\n\n');
}

/** The visible text of an element, whitespace collapsed (for titles and headings). */
export function visibleText(root: DomNode): string {
  const writer = new BlockWriter();
  inline(root, writer);
  return collapse(readLine(writer)).replace(/\n/g, ' ');
}

function walk(node: DomNode, out: BlockWriter): void {
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) {
      out.text((child.nodeValue ?? '').replaceAll(BREAK, ' '));
      continue;
    }
    if (child.nodeType !== ELEMENT_NODE) continue;
    const element = child as DomElement;
    const tag = element.localName;
    if (isSkipped(element)) continue;
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      out.flush();
      inline(element, out);
      out.flush(Number(heading[1]));
    } else if (tag === 'pre') {
      const code = (element.textContent ?? '').replace(/^\n+|\s+$/g, '');
      out.raw(code === '' ? '' : `\`\`\`\n${code.replaceAll('```', '` ` `')}\n\`\`\``);
    } else if (tag === 'br') {
      out.text(BREAK);
    } else if (tag === 'li') {
      out.startItem(element.parentElement?.localName === 'ol' ? `${itemNumber(element)}. ` : '- ');
      walk(element, out);
      out.flush();
    } else if (tag === 'tr') {
      out.flush();
      tableRow(element, out);
      out.flush();
    } else if (BLOCKS.has(tag)) {
      out.flush();
      walk(element, out);
      out.flush();
    } else {
      walk(element, out);
    }
  }
}

/** Text only: block structure inside is flattened (headings, table cells). */
function inline(node: DomNode, out: BlockWriter): void {
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) {
      out.text((child.nodeValue ?? '').replaceAll(BREAK, ' '));
    } else if (child.nodeType === ELEMENT_NODE && !isSkipped(child as DomElement)) {
      const tag = (child as DomElement).localName;
      if (tag === 'br' || BLOCKS.has(tag)) out.text(' ');
      inline(child, out);
      if (BLOCKS.has(tag)) out.text(' ');
    }
  }
}

function tableRow(row: DomElement, out: BlockWriter): void {
  const cells: string[] = [];
  for (const cell of Array.from(row.children)) {
    if (cell.localName !== 'td' && cell.localName !== 'th') continue;
    const writer = new BlockWriter();
    inline(cell, writer);
    const text = collapse(readLine(writer)).replace(/\n/g, ' ');
    if (text !== '') cells.push(text);
  }
  out.text(cells.join(' | '));
}

function isSkipped(element: DomElement): boolean {
  return (
    SKIPPED.has(element.localName) ||
    element.hasAttribute('hidden') ||
    element.getAttribute('aria-hidden') === 'true' ||
    element.getAttribute('role') === 'navigation'
  );
}

function itemNumber(item: DomElement): number {
  const list = item.parentElement;
  const start = Number(list?.getAttribute('start') ?? '1');
  let index = 0;
  for (let sibling = item.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
    if (sibling.localName === 'li') index++;
  }
  return (Number.isSafeInteger(start) ? start : 1) + index;
}

function readLine(writer: BlockWriter): string {
  writer.flush();
  return writer.blocks.join(' ');
}

/** Whitespace runs become one space; `<br>` becomes a newline. */
function collapse(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(new RegExp(` ?${BREAK}+ ?`, 'g'), '\n')
    .trim();
}

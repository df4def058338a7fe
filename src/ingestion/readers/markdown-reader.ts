import MarkdownIt from 'markdown-it';
import {
  documentEntry,
  fileStem,
  lenientDate,
  lenientUrl,
  MAX_TEXT_FILE_BYTES,
  readWholeFile,
  skip,
  tooLong,
  type ReadEntry,
  type ReadOptions,
  type SourceFile,
} from './reader-types';

const markdown = new MarkdownIt({ html: false, linkify: false });

/** YAML front matter at the very start: `---` … `---` (or `...`). */
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * A Markdown file is one document. Its title is the front matter's `title`, else the first `# heading`, else the
 * file name. Front matter (flat `key: value` lines) may also give `date`/`source_date`/`updated_at` and
 * `url`/`source_uri`; it is removed from the content.
 */
export async function* readMarkdown(file: SourceFile, options: ReadOptions): AsyncGenerator<ReadEntry> {
  const text = await readWholeFile(file, MAX_TEXT_FILE_BYTES);
  if (typeof text !== 'string') {
    yield text;
    return;
  }
  const { fields, body } = splitFrontMatter(text);
  if (body.trim() === '') {
    yield skip(file.path, 'empty', 'no text after the front matter', file.size);
    return;
  }
  const long = tooLong(file.path, body, file.size);
  if (long) {
    yield long;
    return;
  }
  const title = nonEmpty(fields.get('title')) ?? firstHeading(body);
  yield documentEntry(
    file.path,
    {
      key: file.key,
      label: file.label,
      title: title ?? fileStem(file.path),
      content: body,
      format: 'markdown',
      source_uri: lenientUrl(fields.get('url') ?? fields.get('source_uri') ?? fields.get('source_url')),
      source_date: lenientDate(
        fields.get('source_date') ?? fields.get('updated_at') ?? fields.get('updated') ?? fields.get('date'),
      ),
      summary: nonEmpty(fields.get('summary') ?? fields.get('description')),
    },
    options,
    title !== null,
    file.size,
  );
}

/** Flat `key: value` pairs of the front matter (quotes removed) and the content after it. */
export function splitFrontMatter(text: string): { fields: Map<string, string>; body: string } {
  const fields = new Map<string, string>();
  const match = FRONT_MATTER.exec(text);
  if (!match) return { fields, body: text };
  for (const line of match[1].split(/\r?\n/)) {
    const pair = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!pair) continue;
    const value = pair[2].replace(/^(["'])(.*)\1$/, '$2');
    if (!fields.has(pair[1].toLowerCase())) fields.set(pair[1].toLowerCase(), value);
  }
  return { fields, body: text.slice(match[0].length) };
}

/** The text of the first level-1 heading (markup reduced to text), or null. */
export function firstHeading(content: string): string | null {
  const tokens = markdown.parse(content, {});
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type === 'heading_open' && tokens[i].tag === 'h1') {
      return nonEmpty(plainText(tokens[i + 1]?.content ?? ''));
    }
  }
  return null;
}

function plainText(inline: string): string {
  return inline
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .trim();
}

function nonEmpty(value: string | undefined | null): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value.trim();
}

import { parseHtml, readArticle, type DomDocument } from './dom';
import { htmlToText, visibleText } from './html-text';
import {
  documentEntry,
  fileStem,
  lenientDate,
  lenientUrl,
  MAX_HTML_FILE_BYTES,
  readWholeFile,
  skip,
  tooLong,
  type ReadEntry,
  type ReadOptions,
  type SourceFile,
} from './reader-types';

export interface HtmlDocument {
  title: string | null;
  /** Markdown-shaped main text (headings, paragraphs, lists). */
  text: string;
  /** `<link rel="canonical">` or `og:url`, when present. */
  url: string | null;
  /** `article:modified_time` / `article:published_time`, when present. */
  date: string | null;
}

/**
 * An HTML page is one document: its main text as Readability finds it (falling back to the body without
 * navigation, footers, forms, scripts and styles), with headings and paragraphs kept for chunking. Scripts never
 * run and no resource is fetched. The title is Readability's, else `<title>`, else the first `<h1>`.
 */
export async function* readHtml(file: SourceFile, options: ReadOptions): AsyncGenerator<ReadEntry> {
  const html = await readWholeFile(file, MAX_HTML_FILE_BYTES);
  if (typeof html !== 'string') {
    yield html;
    return;
  }
  const page = extractHtml(html);
  if (page.text.trim() === '') {
    yield skip(file.path, 'empty', 'no readable text in the page', file.size);
    return;
  }
  const long = tooLong(file.path, page.text, file.size);
  if (long) {
    yield long;
    return;
  }
  yield documentEntry(
    file.path,
    {
      key: file.key,
      label: file.label,
      title: page.title ?? fileStem(file.path),
      content: page.text,
      format: 'markdown',
      source_uri: lenientUrl(page.url),
      source_date: lenientDate(page.date),
    },
    options,
    page.title !== null,
    file.size,
  );
}

/** Parses a page (no scripts, no network) and extracts its title and main text. */
export function extractHtml(html: string): HtmlDocument {
  const dom = parseHtml(html);
  try {
    const document = dom.window.document;
    const head = {
      title: nonEmpty(document.title),
      h1: firstH1(document),
      url: meta(document, 'link[rel~="canonical"]', 'href') ?? meta(document, 'meta[property="og:url"]'),
      date:
        meta(document, 'meta[property="article:modified_time"]') ??
        meta(document, 'meta[property="article:published_time"]'),
    };
    let title: string | null = null;
    let text = '';
    try {
      // Readability edits the document it reads: the fallback below parses the page again.
      const article = readArticle(document);
      title = nonEmpty(article?.title);
      if (article?.content) text = htmlToText(article.content);
    } catch {
      text = '';
    }
    if (text.trim() === '') text = bodyText(html);
    return { title: title ?? head.title ?? head.h1, text, url: head.url, date: head.date };
  } finally {
    dom.window.close();
  }
}

function bodyText(html: string): string {
  const dom = parseHtml(html);
  try {
    const body = dom.window.document.body;
    return body ? htmlToText(body) : '';
  } finally {
    dom.window.close();
  }
}

function firstH1(document: DomDocument): string | null {
  const h1 = document.querySelector('h1');
  return h1 ? nonEmpty(visibleText(h1)) : null;
}

function meta(document: DomDocument, selector: string, attribute = 'content'): string | null {
  return nonEmpty(document.querySelector(selector)?.getAttribute(attribute));
}

function nonEmpty(value: string | null | undefined): string | null {
  const flat = value?.replace(/\s+/g, ' ').trim();
  return flat ? flat : null;
}

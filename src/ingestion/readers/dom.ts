/**
 * jsdom and Readability, typed by the few members the HTML reader uses. Importing their own type declarations
 * would add TypeScript's DOM library to the whole program (jsdom's declarations reference it), which retypes
 * globals such as `fetch` for every other file; so they are loaded with `require` and these interfaces.
 */

export interface DomNode {
  readonly nodeType: number;
  readonly nodeValue: string | null;
  readonly textContent: string | null;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
}

export interface DomElement extends DomNode {
  readonly localName: string;
  readonly parentElement: DomElement | null;
  readonly previousElementSibling: DomElement | null;
  readonly children: ArrayLike<DomElement>;
  hasAttribute(name: string): boolean;
  getAttribute(name: string): string | null;
}

export interface DomDocument {
  readonly title: string;
  readonly body: DomElement | null;
  querySelector(selector: string): DomElement | null;
}

export interface ParsedPage {
  readonly window: { readonly document: DomDocument; close(): void };
}

interface JsdomModule {
  JSDOM: new (html: string, options: { virtualConsole: object }) => ParsedPage;
  VirtualConsole: new () => object;
}

interface ReadabilityModule {
  Readability: new (
    document: DomDocument,
    options: { serializer: (node: DomNode) => DomNode },
  ) => { parse(): { title?: string | null; content?: DomNode | null } | null };
}

let modules: { jsdom: JsdomModule; readability: ReadabilityModule } | null = null;

/** Loaded on first use: jsdom takes a while to load, and most CLI commands never parse a page. */
function load(): { jsdom: JsdomModule; readability: ReadabilityModule } {
  modules ??= {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: no DOM library for the program
    jsdom: require('jsdom') as JsdomModule,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    readability: require('@mozilla/readability') as ReadabilityModule,
  };
  return modules;
}

/**
 * Parses a page: scripts never run, no resource is fetched (jsdom's defaults), and a silent console keeps
 * stylesheet and markup complaints off the operator's terminal. Close the window when done.
 */
export function parseHtml(html: string): ParsedPage {
  const { jsdom } = load();
  return new jsdom.JSDOM(html, { virtualConsole: new jsdom.VirtualConsole() });
}

/** Readability's article (its title and main content as a DOM node), or null. Edits `document`. */
export function readArticle(document: DomDocument): { title: string | null; content: DomNode | null } | null {
  const article = new (load().readability.Readability)(document, { serializer: (node) => node }).parse();
  return article ? { title: article.title ?? null, content: article.content ?? null } : null;
}

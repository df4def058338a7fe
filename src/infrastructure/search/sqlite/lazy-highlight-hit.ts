import type { FilterValue, SearchHit, SearchMember } from '../search-index.port';
import type { BodyReader } from './body-reader';
import { highlightExcerpts } from './excerpts';
import type { CachedRow } from './row-cache';

const HIGHLIGHTS = { max: 3, context: 80 };

/** A looked-up match that passed the filters (with its value's members when collapsed). */
export interface Found extends CachedRow {
  score: number;
  members?: SearchMember[];
}

/**
 * A hit whose highlights are computed when first read (and can be replaced like a plain property): the body is
 * read then, through the search's BodyReader (a caller that reads few highlights reads few bodies). The body read
 * is outside the search's snapshot: a document changed in between is highlighted as it is now. A class (the
 * accessors on its prototype): an object literal with its own accessors per hit made V8 give every hit a
 * dictionary of its own.
 */
export class LazyHighlightHit implements SearchHit {
  id: string;
  score: number;
  fields: Record<string, FilterValue>;
  title: string;
  members?: SearchMember[];
  #highlights: string[] | undefined;
  readonly #terms: ReadonlySet<string>;
  readonly #bodies: BodyReader;

  constructor(found: Found, terms: ReadonlySet<string>, bodies: BodyReader) {
    this.id = found.id;
    this.score = found.score;
    this.fields = found.fields;
    this.title = found.title;
    if (found.members !== undefined) this.members = found.members;
    this.#terms = terms;
    this.#bodies = bodies;
  }

  get highlights(): string[] {
    this.#highlights ??= highlightExcerpts(this.#bodies.read(this.id), this.#terms, HIGHLIGHTS);
    return this.#highlights;
  }

  set highlights(value: string[]) {
    this.#highlights = value;
  }
}

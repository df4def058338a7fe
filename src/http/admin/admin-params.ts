import { NotFoundError, type ErrorDetail } from '../../common/errors';
import type { MemoryItemFilters } from '../../queries/admin/admin-views';
import { validationError } from '../errors/error-response';

/** A path id: a positive integer, else the resource's 404 (an id that cannot exist is not found). */
export function pathId(value: string, what: string, code: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new NotFoundError(`${what} not found`, code);
  }
  return Number(value);
}

/** Reads a query string: each parameter at most once; every problem one 422 detail naming it. */
export class QueryReader {
  readonly details: ErrorDetail[] = [];
  private readonly query: Record<string, unknown>;

  constructor(raw: unknown) {
    this.query = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  }

  single(name: string): string | undefined {
    if (!Object.prototype.hasOwnProperty.call(this.query, name)) return undefined;
    const value = this.query[name];
    if (typeof value === 'string') return value;
    this.details.push({ field: name, message: 'must be given once' });
    return undefined;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | null {
    const value = this.single(name);
    if (value === undefined || value === '') return null;
    if ((values as readonly string[]).includes(value)) return value as T;
    this.details.push({ field: name, message: `must be one of ${values.join(', ')}` });
    return null;
  }

  integer(name: string, min: number, max: number): number | null {
    const value = this.single(name);
    if (value === undefined || value === '') return null;
    if (/^\d{1,16}$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
    this.details.push({ field: name, message: `must be an integer from ${min} to ${max}` });
    return null;
  }

  boolean(name: string): boolean {
    const value = this.single(name);
    if (value === undefined || value === '' || value === 'false') return false;
    if (value === 'true') return true;
    this.details.push({ field: name, message: 'must be true or false' });
    return false;
  }

  text(name: string, max: number): string | null {
    const value = this.single(name)?.trim();
    if (value === undefined || value === '') return null;
    if ([...value].length > max || /\p{Cc}/u.test(value)) {
      this.details.push({ field: name, message: `at most ${max} characters without control characters` });
      return null;
    }
    return value;
  }

  done(): void {
    if (this.details.length > 0) throw validationError(this.details);
  }
}

export const MAX_MEMORY_PAGE = 100;

/** `GET …/memory/items` filters (docs/admin.md). */
export function parseMemoryFilters(raw: unknown): MemoryItemFilters {
  const read = new QueryReader(raw);
  const filters: MemoryItemFilters = {
    lifecycle_status: read.oneOf('lifecycle_status', ['active', 'archived'] as const),
    audience: read.oneOf('audience', ['customer_safe', 'internal'] as const),
    source_type: read.oneOf('source_type', ['document', 'tool_work_log', 'memory_proposal'] as const),
    q: read.text('q', 200),
    cursor: read.integer('cursor', 1, Number.MAX_SAFE_INTEGER),
    limit: read.integer('limit', 1, MAX_MEMORY_PAGE) ?? 20,
  };
  read.done();
  return filters;
}

import { ValidationFailedError } from '../../common/errors';

/**
 * What an operator token may do on the admin API (docs/admin.md). `read` covers every GET; each write scope one
 * kind of change. `all` on the command line stands for every scope.
 */
export const OPERATOR_SCOPES = [
  'read',
  'organizations:write',
  'connectors:write',
  'memory:write',
  'proposals:review',
  'projections:rebuild',
] as const;

export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

/** Validates, de-duplicates and sorts a scope list; `all` expands to every scope. At least one. */
export function normalizeScopes(values: readonly string[]): OperatorScope[] {
  const expanded = values.flatMap((value) => (value === 'all' ? [...OPERATOR_SCOPES] : [value]));
  const unknown = expanded.filter((value) => !(OPERATOR_SCOPES as readonly string[]).includes(value));
  if (unknown.length > 0 || expanded.length === 0) {
    throw new ValidationFailedError(
      expanded.length === 0 ? 'give at least one scope' : `unknown scopes: ${unknown.join(', ')}`,
      [{ field: 'scopes', message: `one or more of ${OPERATOR_SCOPES.join(', ')} (or all)` }],
    );
  }
  return [...new Set(expanded as OperatorScope[])].sort();
}

import { ValidationFailedError } from '../../common/errors';

/** Capabilities a connector token can carry (spec §5). */
export const FIXED_CAPABILITIES = [
  'memory_search',
  'memory_save',
  'memory_propose',
  'assistant_reply',
  'assistant_feedback',
] as const;

export type FixedCapability = (typeof FIXED_CAPABILITIES)[number];
/** `assistant_tool:<tool-key>`: one assistant tool, usable only together with `assistant_reply`. */
export const TOOL_CAPABILITY_PATTERN = /^assistant_tool:[a-z][a-z0-9_]{0,63}$/;
export const MAX_CAPABILITIES = 64;

export function isCapability(value: string): boolean {
  return (FIXED_CAPABILITIES as readonly string[]).includes(value) || TOOL_CAPABILITY_PATTERN.test(value);
}

/** Validates, de-duplicates and sorts a capability list (it may be empty: a connector with no rights). */
export function normalizeCapabilities(values: string[]): string[] {
  const unknown = values.filter((value) => !isCapability(value));
  if (unknown.length > 0) {
    throw new ValidationFailedError(
      `unknown capabilities: ${unknown.join(', ')}`,
      unknown.map((value) => ({
        field: 'capabilities',
        message: `"${value}" is not one of ${FIXED_CAPABILITIES.join(', ')} or assistant_tool:<tool-key>`,
      })),
    );
  }
  const unique = [...new Set(values)].sort();
  if (unique.length > MAX_CAPABILITIES) {
    throw new ValidationFailedError(`at most ${MAX_CAPABILITIES} capabilities`, [
      { field: 'capabilities', message: `at most ${MAX_CAPABILITIES}` },
    ]);
  }
  return unique;
}

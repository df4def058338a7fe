import { ValidationFailedError } from '../common/errors';

/**
 * Structural bounds of every JSON request body (docs/hardening.md), checked on the raw text before it is parsed,
 * so no later step (validation, transformation, logging) ever sees a structure it could overflow on.
 */
export const JSON_BODY_BOUNDS = {
  /** Deepest nesting of arrays and objects (the body itself is level 1). */
  maxDepth: 32,
  /** Most elements of one array. */
  maxArrayItems: 1_000,
  /** Most members of one object. */
  maxObjectMembers: 1_000,
} as const;

type Bound = 'max_depth' | 'max_array_items' | 'max_object_members';

function boundError(bound: Bound, limit: number, message: string): ValidationFailedError {
  return new ValidationFailedError(
    message,
    [{ field: 'body', message, bound, limit }],
    'body_bound_exceeded',
  );
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * One linear pass over the JSON text, no recursion: throws `body_bound_exceeded` (422) naming the bound the body
 * breaks. Text that is not JSON is left for the parser to refuse (400), unless it breaks a bound first.
 */
export function assertJsonWithinBounds(text: string, bounds = JSON_BODY_BOUNDS): void {
  // Per open container: true for an array; its comma count so far.
  const isArray: boolean[] = [];
  const commas: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (isArray.length >= bounds.maxDepth) {
        throw boundError(
          'max_depth',
          bounds.maxDepth,
          `the JSON body nests arrays and objects deeper than ${bounds.maxDepth} levels`,
        );
      }
      isArray.push(c === OPEN_ARRAY);
      commas.push(0);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      isArray.pop();
      commas.pop();
    } else if (c === COMMA && commas.length > 0) {
      const level = commas.length - 1;
      const members = ++commas[level]! + 1;
      if (isArray[level] && members > bounds.maxArrayItems) {
        throw boundError(
          'max_array_items',
          bounds.maxArrayItems,
          `a JSON array in the body has more than ${bounds.maxArrayItems} items`,
        );
      }
      if (!isArray[level] && members > bounds.maxObjectMembers) {
        throw boundError(
          'max_object_members',
          bounds.maxObjectMembers,
          `a JSON object in the body has more than ${bounds.maxObjectMembers} members`,
        );
      }
    }
  }
}

/** Heuristics shared by the detectors: is a value a placeholder, code, prose, or random-looking? */

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  const length = [...value].length;
  for (const count of counts.values()) {
    const p = count / length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

export interface CharClasses {
  upper: boolean;
  lower: boolean;
  digit: boolean;
  symbol: boolean;
}

export function charClasses(value: string): CharClasses {
  return {
    upper: /[A-Z]/.test(value),
    lower: /[a-z]/.test(value),
    digit: /\d/.test(value),
    symbol: /[^A-Za-z0-9\s]/.test(value),
  };
}

/** Words that stand for "no real value here" when they are the whole value. */
const PLACEHOLDER_WORDS = new Set([
  'changeme',
  'change_me',
  'change-me',
  'changeit',
  'example',
  'placeholder',
  'redacted',
  'removed',
  'hidden',
  'masked',
  'secret',
  'token',
  'apikey',
  'api_key',
  'null',
  'nil',
  'none',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'todo',
  'tbd',
  'fixme',
  'xxx',
  'n/a',
  'na',
  'empty',
  'required',
  'optional',
]);

/** Type names seen in code/schemas: `password: string`. */
const TYPE_NAMES = new Set(['string', 'str', 'number', 'int', 'integer', 'boolean', 'bool', 'bytes', 'any']);

/**
 * True when the value is obviously not a real credential: empty, masked (`********`, `xxxx`, `•••`),
 * a template/env/variable reference (`${SECRET}`, `$SECRET`, `$pass`, `%SECRET%`, `{{ secret }}`, `$(cat f)`,
 * `<your-token>`, `[REDACTED]`), a "your…/enter…" instruction or "…-here" filler, a placeholder word, a type name.
 */
export function isPlaceholder(raw: string): boolean {
  const value = raw.trim();
  if (value.length === 0) return true;
  if (/^[*xX•.#_\-?~|]+$/.test(value)) return true;
  // YAML tags and references: `!vault |`, `!Ref DbPassword`.
  if (/^![A-Za-z]/.test(value)) return true;
  if (
    /^(\$\{[^}]*\}|\$\([^)]*\)|\$(?:[A-Z_][A-Z0-9_]*|[a-z_]+)|%[A-Za-z_][A-Za-z0-9_]*%|\{\{.*\}\}|<[^<>]*>|\[[^[\]]*\])$/.test(
      value,
    )
  )
    return true;
  if (
    /^(your|enter|insert|replace|put)[-_ .]?(own[-_ .]?)?(api|app|access|secret|auth|db|database|account|user|client|password|passwd|pass|token|key|credentials?|value|real|actual)/i.test(
      value,
    ) ||
    /[-_ .](goes[-_ .])?here$/i.test(value)
  )
    return true;
  const lower = value.toLowerCase();
  if (PLACEHOLDER_WORDS.has(lower) || TYPE_NAMES.has(lower)) return true;
  // One way to match each value (`x{3,}[-_a-z0-9]*` backtracked quadratically on `xxx…x!`: x is in both).
  if (/^(?:x{3}[-_a-z0-9]*|\*{3}\**[-_a-z0-9]*)$/i.test(value)) return true;
  return false;
}

/**
 * True when an unquoted value is code, not a literal: member access (`process.env.DB_PASS`, `self.password`),
 * a call or index (`getenv("X")`, `os.environ[`), or an operator.
 */
export function isCodeReference(value: string): boolean {
  if (/[([{]/.test(value)) return true;
  if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+$/.test(value) && !/\d/.test(value)) return true;
  return false;
}

/** Several ordinary words separated by spaces: a sentence, not a credential. */
export function isProse(value: string): boolean {
  const tokens = value.trim().split(/\s+/);
  if (tokens.length < 2) return false;
  const wordLike = tokens.filter((token) => /^[A-Za-z][a-z'’]*[.,:;!?]?$/.test(token)).length;
  return wordLike / tokens.length >= 0.5;
}

/** A file path, file name (`report.pdf`) or URL rather than a secret value. */
export function isPathOrUrl(value: string): boolean {
  if (/^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,4}\d?$/.test(value) && !/^\d+(\.\d+)+$/.test(value)) return true;
  return (
    /^(~|\.{1,2})?\/[\w.\-/]*$/.test(value) ||
    /^[a-z][a-z0-9+.-]*:\/\/\S*$/i.test(value) ||
    /^[A-Za-z]:\\/.test(value)
  );
}

/**
 * Random-looking: long enough, letters and digits mixed, not one repeated pattern. Used where the key name alone is
 * weak evidence (`…_key`, `…_secret`, `…token`), so words like `created_at` or `sampleHerokuKey` are not flagged.
 */
export function looksRandom(value: string, minLength = 12): boolean {
  if (value.length < minLength) return false;
  if (isProse(value)) return false;
  const classes = charClasses(value);
  if (!classes.digit || !(classes.upper || classes.lower)) return false;
  const entropy = shannonEntropy(value);
  return entropy >= 3 && new Set(value).size >= 8;
}

/**
 * Vendor documentation examples mark their fake keys with the word EXAMPLE (AWS: `AKIAIOSFODNN7EXAMPLE`,
 * `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`). Token detectors skip such values; password assignments do not
 * (`ExamplePass123` is still a real-looking password).
 */
export function isDocumentedExample(value: string): boolean {
  return /EXAMPLE/.test(value) || /^(?:sk|pk|rk)_(?:test|live)_(?:x+|0+|1234567890)/.test(value);
}

/**
 * Mostly made of words (`user_profile_cache_2024`, `getUserProfileV2`, `dummy_bucket-90a`): an identifier, not a
 * random token. Counts the characters in alphabetic pieces of 3+ letters that contain a vowel.
 */
export function identifierLike(value: string): boolean {
  const pieces = value.split(/[^A-Za-z]+/).flatMap((piece) => piece.split(/(?=[A-Z][a-z])/));
  let wordChars = 0;
  for (const piece of pieces) {
    if (
      /^[A-Za-z][a-z]{2,}$/.test(piece) &&
      /[aeiouy]/i.test(piece) &&
      !/[bcdfghjklmnpqrstvwxz]{5}/i.test(piece)
    )
      wordChars += piece.length;
  }
  return wordChars / value.length >= 0.6;
}

import { createRequire } from 'node:module';
import type { RawFinding } from './rules/finding';

/**
 * secretlint (`@secretlint/core` + `@secretlint/secretlint-rule-preset-recommend`) as one detector. The packages
 * are ESM-only; Node >= 20.19 can `require()` them. Jest's module registry cannot, so under jest the loader falls
 * back to Node's own `require` (`process.getBuiltinModule`), which bypasses the registry.
 *
 * The preset's rules are registered one by one, WITHOUT `secretlint-rule-filter-comments`: that rule lets the
 * scanned text switch scanning off (`secretlint-disable`), which would let content that is being checked exempt
 * itself. Sources are linted as plain text (`.txt`): the scanner has field values, not files, so file-name based
 * behaviour (`.npmrc`, `package.json`, `.p12`) never applies.
 */
const PRESET_ID = '@secretlint/secretlint-rule-preset-recommend';
const FILTER_COMMENTS_ID = '@secretlint/secretlint-rule-filter-comments';

interface SecretlintRule {
  meta: { id: string };
}
interface SecretlintMessage {
  ruleId: string;
  messageId: string;
  range: [number, number];
}
type LintSource = (input: {
  source: { filePath: string; content: string; ext: string; contentType: 'text' };
  options: { config: { rules: { id: string; rule: SecretlintRule; options: Record<string, unknown> }[] } };
}) => Promise<{ messages: unknown[] }>;

/** `require` relative to `base`; under jest, Node's own (jest's cannot load ESM). */
function requireFrom(base: string, id: string): unknown {
  try {
    return createRequire(base)(id) as unknown;
  } catch (error) {
    const getBuiltin: unknown = Reflect.get(process, 'getBuiltinModule');
    if (typeof getBuiltin !== 'function') throw error;
    const nodeModule = (getBuiltin as (name: string) => unknown)(
      'node:module',
    ) as typeof import('node:module');
    return nodeModule.createRequire(base)(id) as unknown;
  }
}

/**
 * secretlint's profiler (a module singleton) puts two `performance.mark`s per rule per lint into Node's global
 * performance timeline and keeps every mark and measure in arrays forever: in a long-running service memory grows
 * and each lint's `performance.measure` lookups get slower (a 2 KB field went from 1 ms to 30+ ms after a few
 * thousand scans). Profiling is not used here, so its `mark` becomes a no-op and its arrays are kept empty.
 */
function silenceProfiler(corePath: string): () => void {
  const profiler: unknown = Reflect.get(
    Object(requireFrom(corePath, '@secretlint/profiler')),
    'secretLintProfiler',
  );
  if (typeof profiler !== 'object' || profiler === null) return () => undefined;
  if (typeof Reflect.get(profiler, 'mark') === 'function') Reflect.set(profiler, 'mark', () => undefined);
  return () => {
    for (const name of ['entries', 'measures']) {
      const list: unknown = Reflect.get(profiler, name);
      if (Array.isArray(list)) list.length = 0;
    }
  };
}

function isRule(value: unknown): value is SecretlintRule {
  if (typeof value !== 'object' || value === null) return false;
  const meta: unknown = Reflect.get(value, 'meta');
  return typeof meta === 'object' && meta !== null && typeof Reflect.get(meta, 'id') === 'string';
}

function isMessage(value: unknown): value is SecretlintMessage {
  if (typeof value !== 'object' || value === null) return false;
  const range: unknown = Reflect.get(value, 'range');
  return (
    typeof Reflect.get(value, 'ruleId') === 'string' &&
    Array.isArray(range) &&
    range.length === 2 &&
    range.every((n) => typeof n === 'number')
  );
}

interface Loaded {
  lintSource: LintSource;
  config: { rules: { id: string; rule: SecretlintRule; options: Record<string, unknown> }[] };
  afterLint: () => void;
}

function load(): Loaded {
  const corePath = createRequire(__filename).resolve('@secretlint/core');
  const core: unknown = requireFrom(corePath, '@secretlint/core');
  const preset: unknown = requireFrom(__filename, PRESET_ID);
  const lintSource: unknown = Reflect.get(Object(core), 'lintSource');
  const rules: unknown = Reflect.get(Object(preset), 'rules');
  if (typeof lintSource !== 'function' || !Array.isArray(rules)) {
    throw new Error('secretlint: unexpected module shape (lintSource / preset rules not found)');
  }
  const ruleList = rules.filter(isRule).filter((rule) => rule.meta.id !== FILTER_COMMENTS_ID);
  return {
    lintSource: lintSource as LintSource,
    config: { rules: ruleList.map((rule) => ({ id: rule.meta.id, rule, options: {} })) },
    afterLint: silenceProfiler(corePath),
  };
}

let loaded: Loaded | null = null;

/** Private-key messages become `private_key`; everything else from secretlint is a `secret`. */
function kindOf(ruleId: string): RawFinding['kind'] {
  return ruleId.endsWith('privatekey') ? 'private_key' : 'secret';
}

export async function detectWithSecretlint(text: string): Promise<RawFinding[]> {
  loaded ??= load();
  const result = await loaded.lintSource({
    source: { filePath: 'memory-field.txt', content: text, ext: '.txt', contentType: 'text' },
    options: { config: loaded.config },
  });
  loaded.afterLint();
  return result.messages.filter(isMessage).map((message) => ({
    kind: kindOf(message.ruleId),
    rule: message.ruleId,
    start: message.range[0],
    end: message.range[1],
    // secretlint's own message text quotes the secret; only the rule and message ids are kept.
    description: `secret found by ${message.ruleId.replace('@secretlint/secretlint-rule-', 'secretlint ')} (${String(
      message.messageId,
    )})`,
  }));
}

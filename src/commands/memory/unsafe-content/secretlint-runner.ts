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

function nodeRequire(id: string): unknown {
  try {
    return createRequire(__filename)(id) as unknown;
  } catch (error) {
    const getBuiltin: unknown = Reflect.get(process, 'getBuiltinModule');
    if (typeof getBuiltin !== 'function') throw error;
    const nodeModule = (getBuiltin as (name: string) => unknown)('node:module') as typeof import('node:module');
    return nodeModule.createRequire(__filename)(id) as unknown;
  }
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
}

function load(): Loaded {
  const core = nodeRequire('@secretlint/core');
  const preset = nodeRequire(PRESET_ID);
  const lintSource: unknown = typeof core === 'object' && core !== null ? Reflect.get(core, 'lintSource') : undefined;
  const rules: unknown = typeof preset === 'object' && preset !== null ? Reflect.get(preset, 'rules') : undefined;
  if (typeof lintSource !== 'function' || !Array.isArray(rules)) {
    throw new Error('secretlint: unexpected module shape (lintSource / preset rules not found)');
  }
  const ruleList = rules.filter(isRule).filter((rule) => rule.meta.id !== FILTER_COMMENTS_ID);
  return {
    lintSource: lintSource as LintSource,
    config: { rules: ruleList.map((rule) => ({ id: rule.meta.id, rule, options: {} })) },
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

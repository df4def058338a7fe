/**
 * Tool input validation and output projection (interface §4.6 rule 10). Pure: no I/O.
 *
 * `projectToolOutput` accepts a tool result only when ALL of these hold, else it returns `ok: false` with the
 * system-status code `external_tool_output_unsafe`, a reason and the value path (never the value):
 * 1. the value satisfies the output schema (tool-value.ts). An undeclared field is a violation that rejects the
 *    whole output (`unexpected_field`): it is not silently dropped, because a tool that sends fields its schema
 *    does not declare is misbehaving, and the contract says every accepted constraint is enforced;
 * 2. no string holds a credential or other unsafe content (tool-credentials.ts): `credential` / `sensitive_data`;
 * 3. no string holds an absolute URI (tool-uri-scan.ts), `absolute_uri`, except in a linkable field, whose value
 *    must then be exactly one URL (no whitespace, no second URI inside it such as `?next=https://…`, unchanged by
 *    NFKC) that `unsafeLinkReason` accepts as public http/https (`unsafe_link`, detail = its reason) and whose
 *    host is in allowed_link_hosts (`link_host_not_allowed`). Host matching is exact after WHATWG normalization
 *    (lower case, IDNA, trailing dot ignored): `track.example.com` does not admit `evil.track.example.com` nor
 *    `example.com`; list every host. Ports are allowed, as for source links.
 * The result is projected once: a fresh object with only the declared fields, in schema order; linkable URLs
 * are replaced by their normalized WHATWG href (the exact string that was checked). Projecting a projected
 * output yields the same output, so a stored output can be revalidated against the current definition.
 * Input (`validateToolInput`) is checked against the input schema only: the values come from the model and are
 * sent to the operator's own endpoint, not shown to the customer.
 */
import { unsafeLinkReason } from '../commands/replies/source-links';
import { findUnsafeText } from './tool-credentials';
import type { ToolDefinition } from './tool-definition';
import { baseType, type ToolArraySchema, type ToolObjectSchema, type ToolSchema } from './tool-schema-types';
import { findAbsoluteUris } from './tool-uri-scan';
import { validateToolValue, type ToolValueReason, type ToolValueViolation } from './tool-value';

export { validateToolValue, type ToolValueViolation } from './tool-value';

export const TOOL_OUTPUT_UNSAFE = 'external_tool_output_unsafe';

export type ToolJsonValue =
  string | number | boolean | null | ToolJsonValue[] | { [key: string]: ToolJsonValue };

export type ToolOutputReason =
  | ToolValueReason
  | 'credential'
  | 'sensitive_data'
  | 'absolute_uri'
  | 'unsafe_link'
  | 'link_host_not_allowed';

export type ToolOutputResult =
  | { ok: true; output: { [key: string]: ToolJsonValue } }
  | {
      ok: false;
      code: typeof TOOL_OUTPUT_UNSAFE;
      reason: ToolOutputReason;
      /** Value path, e.g. `output.shipments[0].tracking_url`. */
      path: string;
      /** Static detail: a detector rule, a link reason or a violation message; never the value. */
      detail: string;
    };

type OutputRules = Pick<ToolDefinition, 'output_schema' | 'linkable_fields' | 'allowed_link_hosts'>;

class Rejected extends Error {
  constructor(
    readonly reason: ToolOutputReason,
    readonly path: string,
    readonly detail: string,
  ) {
    super(reason);
  }
}

function checkLink(text: string, path: string, rules: OutputRules): string {
  const single = 'a linkable field must hold exactly one http or https URL';
  if (text !== text.normalize('NFKC') || /\s/.test(text) || !/^https?:/i.test(text)) {
    throw new Rejected('absolute_uri', path, single);
  }
  const starts = findAbsoluteUris(text);
  if (starts.length !== 1 || starts[0] !== 0) throw new Rejected('absolute_uri', path, single);
  const reason = unsafeLinkReason(text);
  if (reason !== null) throw new Rejected('unsafe_link', path, reason);
  const url = new URL(text);
  const host = url.hostname.replace(/\.+$/, '');
  if (!rules.allowed_link_hosts.includes(host)) {
    throw new Rejected('link_host_not_allowed', path, 'the URL host is not in allowed_link_hosts');
  }
  return url.href;
}

function projectString(text: string, path: string, fieldPath: string, rules: OutputRules): string {
  const finding = findUnsafeText(text);
  if (finding !== null) throw new Rejected(finding.reason, path, finding.rule);
  if (findAbsoluteUris(text).length === 0) return text;
  if (!rules.linkable_fields.includes(fieldPath)) {
    throw new Rejected('absolute_uri', path, 'absolute URIs are only allowed in linkable fields');
  }
  return checkLink(text, path, rules);
}

/** Projects an already validated value: declared fields only, strings checked. */
function project(
  schema: ToolSchema,
  value: unknown,
  path: string,
  fieldPath: string,
  rules: OutputRules,
): ToolJsonValue {
  if (value === null) return null;
  switch (baseType(schema)) {
    case 'object': {
      const { properties } = schema as ToolObjectSchema;
      const source = value as Record<string, unknown>;
      const projected: { [key: string]: ToolJsonValue } = {};
      for (const [name, child] of Object.entries(properties)) {
        if (!Object.hasOwn(source, name)) continue;
        const childField = fieldPath === '' ? name : `${fieldPath}.${name}`;
        projected[name] = project(child, source[name], `${path}.${name}`, childField, rules);
      }
      return projected;
    }
    case 'array': {
      const { items } = schema as ToolArraySchema;
      return (value as unknown[]).map((item, i) =>
        project(items, item, `${path}[${i}]`, `${fieldPath}[]`, rules),
      );
    }
    case 'string':
      return projectString(value as string, path, fieldPath, rules);
    default:
      return value as number | boolean;
  }
}

/** Validates, scans and projects one tool output. See the file comment for every rule. */
export function projectToolOutput(rules: OutputRules, value: unknown): ToolOutputResult {
  const violations = validateToolValue(rules.output_schema, value, 'output');
  if (violations.length > 0) {
    const [first] = violations;
    return {
      ok: false,
      code: TOOL_OUTPUT_UNSAFE,
      reason: first.reason,
      path: first.path,
      detail: first.message,
    };
  }
  try {
    const output = project(rules.output_schema, value, 'output', '', rules) as {
      [key: string]: ToolJsonValue;
    };
    return { ok: true, output };
  } catch (error) {
    if (!(error instanceof Rejected)) throw error;
    return {
      ok: false,
      code: TOOL_OUTPUT_UNSAFE,
      reason: error.reason,
      path: error.path,
      detail: error.detail,
    };
  }
}

/** Every violation of a tool input against the definition's input schema (paths start with `input`). */
export function validateToolInput(
  definition: Pick<ToolDefinition, 'input_schema'>,
  value: unknown,
): ToolValueViolation[] {
  return validateToolValue(definition.input_schema, value, 'input');
}

/** Every string of a (projected) output keyed by its value path, for an additional asynchronous secret scan. */
export function toolOutputStrings(value: ToolJsonValue, path = 'output'): Record<string, string> {
  if (typeof value === 'string') return { [path]: value };
  if (Array.isArray(value)) {
    return Object.assign({}, ...value.map((item, i) => toolOutputStrings(item, `${path}[${i}]`))) as Record<
      string,
      string
    >;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => toolOutputStrings(item, `${path}.${key}`));
    return Object.assign({}, ...entries) as Record<string, string>;
  }
  return {};
}

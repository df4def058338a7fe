/**
 * A tool definition as an operator registers it for an organization, and its validation (interface §4.6 rule 10).
 * `parseToolDefinition` checks the whole definition and throws ONE ValidationFailedError (422,
 * code `tool_definition_invalid`) whose details list every problem as `{field, code, message}`; `field` is a path
 * such as `output_schema.properties.items.items.maxLength`. Rules:
 * - only the keys below; any other top-level key is `unknown_key`. All are required except linkable_fields and
 *   allowed_link_hosts (default `[]`): read_only and requires_approval must be stated, not assumed;
 * - key: `^[a-z][a-z0-9_]{0,62}$` (it is also the capability suffix `assistant_tool:<key>`);
 * - description: 1–1000 characters, not blank;
 * - endpoint: an absolute https URL (WHATWG `URL`, stored normalized), at most 2048 characters, without user
 *   info, fragment or credential-bearing query parameters (`token`, `api_key`, `sig`, … as for source links: the
 *   tool client authenticates separately). Plain http is accepted ONLY for loopback hosts (`localhost`,
 *   `*.localhost`, 127.0.0.0/8, `[::1]`) so a tool can be tested locally; anything else is `insecure_endpoint`;
 * - timeout_ms: an integer from 100 to 30000;
 * - read_only must be `true`: `false` is `write_risk` (write-risk tools are not supported);
 * - requires_approval must be `false`: `true` is `approval_required` (approval-required tools are not supported);
 * - input_schema and output_schema: the strict contract (tool-schema-contract.ts); output adds the secret-field rule;
 * - linkable_fields: at most 20 distinct paths of string fields of the output schema, written as property names
 *   joined by `.` with `[]` for array items: `tracking_url`, `shipment.tracking_url`, `shipments[].tracking_url`,
 *   `links[]`. A string field with `format: "uri"` must be linkable (any absolute URI elsewhere is rejected);
 * - allowed_link_hosts: at most 20 host names (no scheme, port, path, wildcard or IP literal), each public by
 *   `unsafeLinkReason`; stored in WHATWG form (lower case, punycode, no trailing dot), duplicates merged.
 *   Required (non-empty) when linkable_fields is non-empty. Matching is exact: list each subdomain (tool-output.ts).
 */
import * as ipaddr from 'ipaddr.js';
import { ValidationFailedError } from '../common/errors';
import { unsafeLinkReason } from '../commands/replies/source-links';
import { checkToolSchema, listSchemaFields } from './tool-schema-contract';
import { baseType, isPlainObject, type ToolObjectSchema, type ToolStringSchema } from './tool-schema-types';

export interface ToolDefinition {
  key: string;
  description: string;
  endpoint: string;
  timeout_ms: number;
  read_only: true;
  requires_approval: false;
  input_schema: ToolObjectSchema;
  output_schema: ToolObjectSchema;
  linkable_fields: string[];
  allowed_link_hosts: string[];
}

export interface ToolDefinitionProblem {
  field: string;
  code: string;
  message: string;
}

export const TOOL_KEY = /^[a-z][a-z0-9_]{0,62}$/;
export const TOOL_TIMEOUT_MS = { min: 100, max: 30_000 } as const;
export const MAX_ENDPOINT_LENGTH = 2048;
export const MAX_LINK_ENTRIES = 20;
const KEYS = [
  'key',
  'description',
  'endpoint',
  'timeout_ms',
  'read_only',
  'requires_approval',
  'input_schema',
  'output_schema',
  'linkable_fields',
  'allowed_link_hosts',
];

type Problems = ToolDefinitionProblem[];

function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return ipaddr.IPv4.parse(hostname).range() === 'loopback';
  const v6 = hostname.startsWith('[') ? hostname.slice(1, -1) : '';
  return ipaddr.IPv6.isValid(v6) && ipaddr.IPv6.parse(v6).range() === 'loopback';
}

function checkEndpoint(raw: unknown, problems: Problems): string {
  const fail = (code: string, message: string): string => {
    problems.push({ field: 'endpoint', code, message });
    return '';
  };
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_ENDPOINT_LENGTH) {
    return fail('invalid_value', `endpoint must be a URL of at most ${MAX_ENDPOINT_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('invalid_value', 'endpoint must be an absolute URL');
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return fail('insecure_endpoint', 'endpoint must use https (http is accepted only for loopback hosts)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return fail('invalid_value', 'endpoint must use https');
  if (url.username !== '' || url.password !== '' || unsafeLinkReason(url.href) === 'credentials') {
    return fail(
      'endpoint_credentials',
      'endpoint must not carry credentials (user info or credential parameters)',
    );
  }
  if (url.hash !== '') return fail('invalid_value', 'endpoint must not have a fragment');
  return url.href;
}

function checkHost(raw: unknown): { host?: string; message?: string } {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 253 || !/^[^\s/\\?#@:[\]*%]+$/.test(raw)) {
    return { message: 'must be a bare host name (no scheme, port, path or wildcard)' };
  }
  let hostname: string;
  try {
    hostname = new URL(`https://${raw}/`).hostname.replace(/\.+$/, '');
  } catch {
    return { message: 'is not a valid host name' };
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname))
    return { message: 'must be a host name, not an IP address' };
  const reason = unsafeLinkReason(`https://${hostname}/`);
  return reason === null ? { host: hostname } : { message: `is not a public host (${reason})` };
}

function stringList(raw: unknown, field: string, problems: Problems): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_LINK_ENTRIES) {
    problems.push({
      field,
      code: 'invalid_value',
      message: `${field} must be an array of at most ${MAX_LINK_ENTRIES} entries`,
    });
    return [];
  }
  return raw as string[];
}

function checkLinks(input: Record<string, unknown>, output: ToolObjectSchema | null, problems: Problems) {
  const fields = output === null ? null : new Map(listSchemaFields(output).map((f) => [f.path, f.schema]));
  const linkable: string[] = [];
  stringList(input.linkable_fields, 'linkable_fields', problems).forEach((path, i) => {
    const field = `linkable_fields.${i}`;
    const schema = typeof path === 'string' ? fields?.get(path) : undefined;
    if (typeof path !== 'string' || linkable.includes(path)) {
      problems.push({
        field,
        code: 'invalid_value',
        message: 'linkable fields must be distinct field paths',
      });
    } else if (fields !== null && (schema === undefined || baseType(schema) !== 'string')) {
      problems.push({
        field,
        code: 'unknown_linkable_field',
        message: 'not a string field of the output schema',
      });
    } else {
      linkable.push(path);
    }
  });
  const hosts: string[] = [];
  stringList(input.allowed_link_hosts, 'allowed_link_hosts', problems).forEach((raw, i) => {
    const { host, message } = checkHost(raw);
    if (host === undefined)
      problems.push({ field: `allowed_link_hosts.${i}`, code: 'invalid_host', message: `host ${message}` });
    else if (!hosts.includes(host)) hosts.push(host);
  });
  if (linkable.length > 0 && hosts.length === 0) {
    const message = 'allowed_link_hosts must list at least one host when linkable_fields is set';
    problems.push({ field: 'allowed_link_hosts', code: 'required', message });
  }
  for (const [path, schema] of fields ?? []) {
    if ((schema as ToolStringSchema).format === 'uri' && !linkable.includes(path)) {
      problems.push({
        field: 'linkable_fields',
        code: 'uri_field_not_linkable',
        message: `output field "${path}" has format uri and must be listed in linkable_fields`,
      });
    }
  }
  return { linkable_fields: linkable, allowed_link_hosts: hosts };
}

function checkFlags(input: Record<string, unknown>, problems: Problems): void {
  if (input.read_only === false) {
    problems.push({
      field: 'read_only',
      code: 'write_risk',
      message: 'write-risk tools are not supported: read_only must be true',
    });
  } else if (input.read_only !== true) {
    problems.push({
      field: 'read_only',
      code: 'required',
      message: 'read_only is required and must be true',
    });
  }
  if (input.requires_approval === true) {
    problems.push({
      field: 'requires_approval',
      code: 'approval_required',
      message: 'approval-required tools are not supported: requires_approval must be false',
    });
  } else if (input.requires_approval !== false) {
    problems.push({
      field: 'requires_approval',
      code: 'required',
      message: 'requires_approval is required and must be false',
    });
  }
}

/** Every problem of a definition, and the normalized definition when there is none. */
export function checkToolDefinition(json: unknown): {
  definition: ToolDefinition | null;
  problems: Problems;
} {
  if (!isPlainObject(json)) {
    return {
      definition: null,
      problems: [{ field: '', code: 'invalid_value', message: 'a tool definition must be a JSON object' }],
    };
  }
  const problems: Problems = [];
  for (const key of Object.keys(json)) {
    if (!KEYS.includes(key))
      problems.push({ field: key, code: 'unknown_key', message: `unknown key; allowed: ${KEYS.join(', ')}` });
  }
  const { key, description, timeout_ms } = json;
  if (typeof key !== 'string' || !TOOL_KEY.test(key)) {
    problems.push({ field: 'key', code: 'invalid_value', message: 'key must match ^[a-z][a-z0-9_]{0,62}$' });
  }
  if (typeof description !== 'string' || description.trim() === '' || description.length > 1000) {
    problems.push({
      field: 'description',
      code: 'invalid_value',
      message: 'description must be 1 to 1000 characters',
    });
  }
  const endpoint = checkEndpoint(json.endpoint, problems);
  const { min, max } = TOOL_TIMEOUT_MS;
  if (
    typeof timeout_ms !== 'number' ||
    !Number.isInteger(timeout_ms) ||
    timeout_ms < min ||
    timeout_ms > max
  ) {
    problems.push({
      field: 'timeout_ms',
      code: 'invalid_value',
      message: `timeout_ms must be an integer from ${min} to ${max}`,
    });
  }
  checkFlags(json, problems);
  const input = checkToolSchema(json.input_schema, 'input_schema', 'input');
  const output = checkToolSchema(json.output_schema, 'output_schema', 'output');
  problems.push(...input.problems, ...output.problems);
  const links = checkLinks(json, output.schema, problems);
  if (problems.length > 0 || input.schema === null || output.schema === null)
    return { definition: null, problems };
  return {
    definition: {
      key: key as string,
      description: description as string,
      endpoint,
      timeout_ms: timeout_ms as number,
      read_only: true,
      requires_approval: false,
      input_schema: input.schema,
      output_schema: output.schema,
      ...links,
    },
    problems: [],
  };
}

/** The validated, normalized definition; throws ValidationFailedError listing every problem otherwise. */
export function parseToolDefinition(json: unknown): ToolDefinition {
  const { definition, problems } = checkToolDefinition(json);
  if (definition !== null) return definition;
  const shown = problems.slice(0, 3).map((p) => (p.field === '' ? p.message : `${p.field}: ${p.message}`));
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
  throw new ValidationFailedError(
    `tool definition rejected: ${shown.join('; ')}${more}`,
    problems.map((p) => (p.field === '' ? { code: p.code, message: p.message } : { ...p })),
    'tool_definition_invalid',
  );
}

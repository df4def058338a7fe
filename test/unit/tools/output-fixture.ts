/** The order-status tool definition and output helpers shared by the tool-output specs. */
import { parseToolDefinition } from '../../../src/tools/tool-definition';
import { TOOL_OUTPUT_UNSAFE, projectToolOutput } from '../../../src/tools/tool-output';
import { BASE32, BASE64URL, b64url, rand } from '../unsafe-content/samples/generators';
import { arr, bool, int, obj, str, type Raw } from './schema-builders';

export const definition = parseToolDefinition({
  key: 'order_status',
  description: 'Order status by order number.',
  endpoint: 'https://tools.example.com/order-status',
  timeout_ms: 3000,
  read_only: true,
  requires_approval: false,
  input_schema: obj(
    { order_id: str({ maxLength: 40, minLength: 1 }), include_items: bool() },
    { required: ['order_id'] },
  ),
  output_schema: obj(
    {
      order_id: str({ maxLength: 40 }),
      status: str({ enum: ['pending', 'shipped', 'delivered'] }),
      eta: str({ type: ['string', 'null'], format: 'date' }),
      updated_at: str({ format: 'date-time' }),
      total: { type: 'number', minimum: 0, maximum: 100_000 },
      items: arr(
        obj(
          {
            sku: str({ maxLength: 40 }),
            qty: int({ minimum: 1, maximum: 99 }),
            note: str({ type: ['string', 'null'], maxLength: 200 }),
          },
          { required: ['sku', 'qty'] },
        ),
        { maxItems: 5 },
      ),
      tracking_url: str({ type: ['string', 'null'], maxLength: 500 }),
      shipments: arr(obj({ carrier: str({ maxLength: 40 }), link: str({ maxLength: 500 }) }), {
        maxItems: 3,
      }),
      matrix: arr(arr(int(), { maxItems: 3 }), { maxItems: 3 }),
    },
    { required: ['order_id', 'status'] },
  ),
  linkable_fields: ['tracking_url', 'shipments[].link'],
  allowed_link_hosts: ['track.example.com'],
});

export const good = (): Raw => ({
  order_id: 'A-1001',
  status: 'shipped',
  eta: '2026-07-20',
  updated_at: '2026-07-17T10:30:00Z',
  total: 129.5,
  items: [
    { sku: 'MUG-01', qty: 2, note: 'Gift wrap at 10:30, ratio 3:1. Note: fragile.' },
    { sku: 'TEA-07', qty: 1, note: null },
  ],
  tracking_url: 'https://track.example.com/T/1Z999',
  shipments: [
    { carrier: 'UPS', link: 'https://track.example.com/T/1Z999' },
    { carrier: 'DHL', link: 'not yet shipped' },
  ],
  matrix: [[1, 2], [3]],
});

/** `good()` with `mutate` applied. */
export function output(mutate: (value: Raw & { items: Raw[]; shipments: Raw[] }) => void): Raw {
  const value = good() as Raw & { items: Raw[]; shipments: Raw[] };
  mutate(value);
  return value;
}

export function rejection(value: unknown): { reason: string; path: string; detail: string } {
  const result = projectToolOutput(definition, value);
  if (result.ok) throw new Error(`expected a rejection, got ${JSON.stringify(result.output)}`);
  expect(result.code).toBe(TOOL_OUTPUT_UNSAFE);
  return { reason: result.reason, path: result.path, detail: result.detail };
}

export const githubToken = `ghp_${rand(3, 36)}`;
export const awsKeyId = `AKIA${rand(1, 16, BASE32)}`;
export const jwt = [
  b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })),
  b64url(JSON.stringify({ sub: 'user-1' })),
  rand(22, 43, BASE64URL),
].join('.');

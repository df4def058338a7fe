import { toEvidence, type RankedEvidence } from '../../../src/commands/replies/reply-evidence';
import type { MemoryItemFields } from '../../../src/projections/memory.projection';
import { WITHHELD_LINK_MARKER as M } from '../../../src/safety/link-text';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const item: MemoryItemFields = {
  id: '7',
  memory_item_id: 7,
  memory_source_id: 3,
  organization_id: 1,
  type: 'faq',
  title: 'Parking (map at http://10.0.0.5/map)',
  summary: 'Parking',
  content_sha256: 'c'.repeat(64),
  source_type: 'document',
  source_label: 'Wiki',
  source_uri: 'http://intranet.acme.corp/parking',
  source_date: null,
  effective_at: null,
  expires_at: null,
  audience: 'customer_safe',
  authority_level: 'approved_source',
  visibility: 'organization_internal',
  owner_client_key: null,
  review_status: 'confirmed',
  lifecycle_status: 'active',
  revision: 2,
  revision_date: '2026-11-01T00:00:00.000Z',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
} as MemoryItemFields;
const ranked: RankedEvidence = {
  item,
  chunk_ids: [11],
  score: 3.5,
  excerpt: 'Parking is free. Map: http://169.254.169.254/latest/meta-data/',
  method: 'lexical',
};
const chunks = [
  {
    memory_chunk_id: 11,
    ordinal: 0,
    heading: 'Parking',
    text: 'Free for 2 hours. See http://127.0.0.1:8080/x.',
  },
];

describe('reply evidence withholds non-public links everywhere it leaves or reaches a model (invariant 5)', () => {
  const evidence = toEvidence(ranked, chunks, null, { organization_id: 1, connector_id: 1 }, NOW);

  it('in the text the models read', () => {
    expect(evidence.text).toBe(`Parking\nFree for 2 hours. See ${M}.`);
  });

  it('in the excerpt and title clients see, and the source_uri', () => {
    expect(evidence.reference.excerpt).toBe(`Parking is free. Map: ${M}`);
    expect(evidence.reference.title).toBe(`Parking (map at ${M})`);
    expect(evidence.reference.source_uri).toBe('');
    expect(evidence.reference.limitations).toContain('source link withheld: internal_name');
  });
});

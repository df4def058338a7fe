import { arrayOf, integer, oneOfStrings, ref, str, type JsonSchema, type Schemas } from './schema-types';

/**
 * Admin API response schemas. They name the fields clients rely on and allow more (`additionalProperties` open):
 * the admin views show stored records as they are, and a field added to a read model must not break a client.
 */
const open = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
});
const ok = { const: true };
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

export const adminSchemas: Schemas = {
  AdminOrganization: open({
    organization_id: integer(),
    name: str(),
    slug: str(),
    website_url: nullable(str()),
    agent_activity_paused: { type: 'boolean' },
    monthly_reply_limit: nullable(integer()),
  }),
  AdminChatbot: open({
    chatbot_id: integer(),
    organization_id: integer(),
    name: str(),
    allowed_domain: nullable(str()),
    paused: { type: 'boolean' },
  }),
  AdminConnector: open({
    connector_id: integer(),
    organization_id: integer(),
    name: str(),
    client_key: str(),
    capabilities: arrayOf(str()),
    grounding_policy: oneOfStrings(['strict', 'standard']),
    active_token_id: nullable(str()),
  }),
  AdminMemoryItem: open({
    memory_item_id: integer(),
    memory_source_id: integer(),
    organization_id: integer(),
    title: str(),
    summary: str(),
    audience: oneOfStrings(['customer_safe', 'internal']),
    authority_level: oneOfStrings(['approved_source', 'reference', 'unverified']),
    lifecycle_status: oneOfStrings(['active', 'archived']),
    source_type: str(),
    revision: integer(),
  }),
  AdminMemoryRevision: open({
    revision: integer(),
    title: str(),
    content: str(),
    content_sha256: str(),
    recorded_at: str(),
    actor: str(),
    proposal_id: nullable(integer()),
  }),
  AdminIngestion: open({
    ingestion_id: str(),
    organization_id: integer(),
    status: oneOfStrings(['running', 'completed', 'failed']),
    total: integer(),
    done: integer(),
    documents: arrayOf(
      open({ document_key: str(), outcome: oneOfStrings(['ingested', 'refused']) }, 'one document'),
    ),
    started_at: str(),
    finished_at: nullable(str()),
  }),
  AdminOrganizationList: open({ ok, organizations: arrayOf(ref('AdminOrganization')) }),
  AdminOrganizationResponse: open({ ok, organization: ref('AdminOrganization') }),
  AdminOrganizationDetail: open({
    ok,
    organization: ref('AdminOrganization'),
    chatbots: arrayOf(ref('AdminChatbot')),
    connectors: arrayOf(ref('AdminConnector')),
  }),
  AdminOrganizationChange: open({
    ok,
    organization_id: integer(),
    agent_activity_paused: { type: 'boolean' },
    monthly_reply_limit: nullable(integer()),
    changed: { type: 'boolean' },
  }),
  AdminChatbotList: open({ ok, chatbots: arrayOf(ref('AdminChatbot')) }),
  AdminChatbotResponse: open({ ok, chatbot: ref('AdminChatbot') }),
  AdminChatbotChange: open({
    ok,
    chatbot_id: integer(),
    paused: { type: 'boolean' },
    changed: { type: 'boolean' },
  }),
  AdminConnectorList: open({ ok, connectors: arrayOf(ref('AdminConnector')) }),
  AdminConnectorResponse: open({ ok, connector: ref('AdminConnector') }),
  AdminConnectorCreated: open({
    ok,
    connector: ref('AdminConnector'),
    token: str('the connector token, shown once', 'cairn_…'),
  }),
  AdminTokenRotated: open({ ok, connector_id: integer(), token_id: str(), token: str('shown once') }),
  AdminTokenRevoked: open({
    ok,
    connector_id: integer(),
    revoked_token_id: nullable(str()),
    changed: { type: 'boolean' },
  }),
  AdminMemoryItemPage: open({
    ok,
    items: arrayOf(ref('AdminMemoryItem')),
    next_cursor: nullable(integer('pass as ?cursor= for the next page; null: last page')),
    total: integer('items matching the filters'),
  }),
  AdminMemoryItemDetail: open({
    ok,
    item: { allOf: [ref('AdminMemoryItem'), open({ content: str() })] },
    revisions: arrayOf(ref('AdminMemoryRevision'), 'newest first'),
  }),
  AdminArchived: open({
    ok,
    memory_item_id: integer(),
    archived: { const: true },
    changed: { type: 'boolean' },
  }),
  AdminErased: open({
    ok,
    subject: str(),
    kind: { const: 'memory_item' },
    id: integer(),
    organization_id: integer(),
    erased: { const: true },
    changed: { type: 'boolean' },
    erased_by: str(),
    erased_at: str(),
    linked_subjects: arrayOf(str(), 'erased with it: the proposal whose approval created the item'),
    keys_destroyed: integer(),
    read_models_forgot: { type: 'boolean' },
  }),
  AdminIngestionResponse: open({ ok, ingestion: ref('AdminIngestion') }),
  AdminProposalList: open({
    ok,
    proposals: arrayOf(
      open({ proposal_id: integer(), organization_id: integer(), title: str(), status: str() }),
    ),
  }),
  AdminProposalShow: open({
    ok,
    proposal: open({ proposal_id: integer(), title: str(), content: str(), status: str() }),
    target: nullable(
      open({
        memory_item_id: integer(),
        cited_revision: nullable(integer()),
        current_revision: nullable(integer()),
        archived: { type: 'boolean' },
        erased: { type: 'boolean' },
      }),
    ),
    diff: open({ old_text: nullable(str()), new_text: str(), lines: arrayOf(str()) }),
    approval: nullable({ type: 'object' }),
  }),
  AdminProposalReviewed: open({
    ok,
    proposal_id: integer(),
    status: oneOfStrings(['approved', 'rejected']),
    memory_item_id: nullable(integer()),
    changed: { type: 'boolean' },
  }),
  AdminReplyList: open({ ok, replies: arrayOf(open({ reply_id: integer(), status: str() })) }),
  AdminReplyResponse: open({ ok, reply: open({ reply_id: integer(), status: str() }) }),
  AdminReplyAudit: open({
    ok,
    reply: open({ reply_id: integer() }),
    verified: { type: 'boolean' },
    streams: arrayOf(
      open({ stream: str(), role: str(), chain_verified: { type: 'boolean' }, missing: { type: 'boolean' } }),
    ),
  }),
  AdminProjectionStatus: open({ ok, projections: arrayOf(open({ name: str() })) }),
  AdminProjectionsRebuilt: open({
    ok,
    rebuilt: arrayOf(open({ name: str(), position: integer(), duration_ms: { type: 'number' } })),
  }),
};

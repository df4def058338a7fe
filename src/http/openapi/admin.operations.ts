import type { ErrorStatus, OperationSpec } from './operations';

const ADMIN = '/admin/api/v1';
const ORG = `${ADMIN}/organizations/{organization_id}`;
/** Every admin GET: no or a bad operator token, a token without `read`, an unknown organization. */
const GET: ErrorStatus[] = [401, 403, 404];
/** Every admin POST with a JSON body. */
const POST: ErrorStatus[] = [400, 401, 403, 404, 413, 415, 422];

const op = (
  method: 'get' | 'post',
  path: string,
  operationId: string,
  schema: string,
  description: string,
  extra: { errors?: ErrorStatus[]; integerParams?: string[]; status?: 202 } = {},
): OperationSpec => ({
  method,
  path,
  operationId,
  success: { schema, description },
  errors: extra.errors ?? (method === 'get' ? GET : POST),
  integerParams: extra.integerParams ?? [],
  ...(extra.status ? { status: extra.status } : {}),
});

const O = ['organization_id'];

/** The admin API's operations (docs/admin.md): operator tokens, never connector tokens. */
export const ADMIN_OPERATIONS: OperationSpec[] = [
  op(
    'get',
    `${ADMIN}/organizations`,
    'adminListOrganizations',
    'AdminOrganizationList',
    'Every organization.',
    {
      errors: [401, 403],
    },
  ),
  op(
    'post',
    `${ADMIN}/organizations`,
    'adminCreateOrganization',
    'AdminOrganizationResponse',
    'Registered.',
    {
      errors: [400, 401, 403, 409, 413, 415, 422],
    },
  ),
  op(
    'get',
    ORG,
    'adminGetOrganization',
    'AdminOrganizationDetail',
    'The organization, its chatbots and connectors.',
    {
      integerParams: O,
    },
  ),
  op('post', `${ORG}/pause-agents`, 'adminPauseAgents', 'AdminOrganizationChange', 'Paused.', {
    integerParams: O,
  }),
  op('post', `${ORG}/resume-agents`, 'adminResumeAgents', 'AdminOrganizationChange', 'Resumed.', {
    integerParams: O,
  }),
  op('post', `${ORG}/plan-limit`, 'adminSetPlanLimit', 'AdminOrganizationChange', 'Set.', {
    integerParams: O,
  }),
  op('get', `${ORG}/chatbots`, 'adminListChatbots', 'AdminChatbotList', 'The chatbots.', {
    integerParams: O,
  }),
  op('post', `${ORG}/chatbots`, 'adminCreateChatbot', 'AdminChatbotResponse', 'Created.', {
    integerParams: O,
  }),
  op('post', `${ORG}/chatbots/{chatbot_id}/pause`, 'adminPauseChatbot', 'AdminChatbotChange', 'Paused.', {
    integerParams: [...O, 'chatbot_id'],
  }),
  op('post', `${ORG}/chatbots/{chatbot_id}/resume`, 'adminResumeChatbot', 'AdminChatbotChange', 'Resumed.', {
    integerParams: [...O, 'chatbot_id'],
  }),
  op('get', `${ORG}/connectors`, 'adminListConnectors', 'AdminConnectorList', 'The connectors.', {
    integerParams: O,
  }),
  op(
    'post',
    `${ORG}/connectors`,
    'adminCreateConnector',
    'AdminConnectorCreated',
    'Registered; the token once.',
    {
      integerParams: O,
    },
  ),
  op(
    'get',
    `${ORG}/connectors/{connector_id}`,
    'adminGetConnector',
    'AdminConnectorResponse',
    'The connector.',
    {
      integerParams: [...O, 'connector_id'],
    },
  ),
  op(
    'post',
    `${ORG}/connectors/{connector_id}/rotate-token`,
    'adminRotateConnectorToken',
    'AdminTokenRotated',
    'A new token (once); the old one stopped.',
    { integerParams: [...O, 'connector_id'], errors: [401, 403, 404] },
  ),
  op(
    'post',
    `${ORG}/connectors/{connector_id}/revoke-token`,
    'adminRevokeConnectorToken',
    'AdminTokenRevoked',
    'Revoked (changed false: no token was active).',
    { integerParams: [...O, 'connector_id'], errors: [401, 403, 404] },
  ),
  op('get', `${ORG}/memory/items`, 'adminListMemoryItems', 'AdminMemoryItemPage', 'One page of items.', {
    integerParams: O,
    errors: [...GET, 422],
  }),
  op(
    'get',
    `${ORG}/memory/items/{memory_item_id}`,
    'adminGetMemoryItem',
    'AdminMemoryItemDetail',
    'The item and its revisions.',
    { integerParams: [...O, 'memory_item_id'] },
  ),
  op(
    'post',
    `${ORG}/memory/items/{memory_item_id}/archive`,
    'adminArchiveMemoryItem',
    'AdminArchived',
    'Archived (changed false: it was already).',
    { integerParams: [...O, 'memory_item_id'], errors: [401, 403, 404] },
  ),
  op(
    'post',
    `${ORG}/memory/items/{memory_item_id}/erase`,
    'adminEraseMemoryItem',
    'AdminErased',
    'Erased (changed false: it was already).',
    { integerParams: [...O, 'memory_item_id'], errors: [401, 403, 404, 422] },
  ),
  op(
    'post',
    `${ORG}/documents`,
    'adminIngestDocuments',
    'AdminIngestionResponse',
    'Accepted: follow the ingestion.',
    {
      integerParams: O,
      status: 202,
    },
  ),
  op(
    'get',
    `${ORG}/documents/ingestions/{ingestion_id}`,
    'adminGetIngestion',
    'AdminIngestionResponse',
    'Progress and outcomes.',
    { integerParams: O },
  ),
  op('get', `${ORG}/proposals`, 'adminListProposals', 'AdminProposalList', 'Proposals, newest first.', {
    integerParams: O,
    errors: [...GET, 422],
  }),
  op(
    'get',
    `${ORG}/proposals/{proposal_id}`,
    'adminGetProposal',
    'AdminProposalShow',
    'The proposal, its diff and what approval would do.',
    { integerParams: [...O, 'proposal_id'], errors: [...GET, 422] },
  ),
  op(
    'post',
    `${ORG}/proposals/{proposal_id}/approve`,
    'adminApproveProposal',
    'AdminProposalReviewed',
    'Approved.',
    {
      integerParams: [...O, 'proposal_id'],
      errors: [...POST, 409],
    },
  ),
  op(
    'post',
    `${ORG}/proposals/{proposal_id}/reject`,
    'adminRejectProposal',
    'AdminProposalReviewed',
    'Rejected.',
    {
      integerParams: [...O, 'proposal_id'],
      errors: [...POST, 409],
    },
  ),
  op('get', `${ORG}/replies`, 'adminListReplies', 'AdminReplyList', 'Replies, newest first.', {
    integerParams: O,
    errors: [...GET, 422],
  }),
  op('get', `${ORG}/replies/{reply_id}`, 'adminGetReply', 'AdminReplyResponse', 'The receipt view.', {
    integerParams: [...O, 'reply_id'],
  }),
  op('get', `${ORG}/replies/{reply_id}/audit`, 'adminAuditReply', 'AdminReplyAudit', 'The audit.', {
    integerParams: [...O, 'reply_id'],
  }),
  op('get', `${ADMIN}/projections`, 'adminProjectionStatus', 'AdminProjectionStatus', 'Each projection.', {
    errors: [401, 403],
  }),
  op(
    'post',
    `${ADMIN}/projections/rebuild`,
    'adminRebuildProjections',
    'AdminProjectionsRebuilt',
    'Rebuilt.',
    {
      errors: [400, 401, 403, 413, 415, 422],
    },
  ),
];

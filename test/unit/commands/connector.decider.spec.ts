import { connectorDecider } from '../../../src/commands/connectors/connector.decider';
import { chatbotDecider } from '../../../src/commands/chatbots/chatbot.decider';
import type { ConnectorEvent } from '../../../src/events/connectors/connector.events';
import { givenDecider } from '../../support/decider-spec';

const given = givenDecider(connectorDecider);
const t1 = { token_id: 'tok_1', token_sha256: 'a'.repeat(64) };
const t2 = { token_id: 'tok_2', token_sha256: 'b'.repeat(64) };
const registered: ConnectorEvent[] = [
  {
    type: 'ConnectorRegistered',
    data: {
      connector_id: 3,
      organization_id: 1,
      name: 'C',
      client_key: 'ck_x',
      capabilities: ['memory_search'],
      grounding_policy: 'strict',
    },
  },
  { type: 'ConnectorTokenIssued', data: { connector_id: 3, ...t1, supersedes_token_id: null } },
];

describe('connector decider', () => {
  it('registers with normalized capabilities and issues the first token', () => {
    given([])
      .when({
        type: 'RegisterConnector',
        connector_id: 3,
        organization_id: 1,
        name: 'C',
        client_key: 'ck_x',
        capabilities: ['memory_search', 'memory_search'],
        grounding_policy: 'strict',
        token: t1,
      })
      .then(registered);
  });

  it('rejects unknown capabilities and accepts assistant_tool:<key>', () => {
    given(registered)
      .when({ type: 'SetCapabilities', organization_id: 1, capabilities: ['memory_search', 'admin'] })
      .thenThrows('validation_failed');
    given(registered)
      .when({
        type: 'SetCapabilities',
        organization_id: 1,
        capabilities: ['assistant_reply', 'assistant_tool:order_status'],
      })
      .then([
        {
          type: 'ConnectorCapabilitiesSet',
          data: {
            connector_id: 3,
            capabilities: ['assistant_reply', 'assistant_tool:order_status'],
            previous: ['memory_search'],
          },
        },
      ]);
    given(registered)
      .when({ type: 'SetCapabilities', organization_id: 1, capabilities: ['assistant_tool:Bad Key'] })
      .thenThrows('validation_failed');
  });

  it('rotation supersedes the active token', () => {
    given(registered)
      .when({ type: 'RotateToken', organization_id: 1, token: t2 })
      .then([
        { type: 'ConnectorTokenIssued', data: { connector_id: 3, ...t2, supersedes_token_id: 'tok_1' } },
      ]);
  });

  it('revokes the active token once', () => {
    given(registered)
      .when({ type: 'RevokeToken', organization_id: 1 })
      .then([{ type: 'ConnectorTokenRevoked', data: { connector_id: 3, token_id: 'tok_1' } }]);
    given([...registered, { type: 'ConnectorTokenRevoked', data: { connector_id: 3, token_id: 'tok_1' } }])
      .when({ type: 'RevokeToken', organization_id: 1 })
      .then([]);
  });

  it('treats another organization as not found (no cross-tenant changes)', () => {
    given(registered).when({ type: 'RevokeToken', organization_id: 2 }).thenThrows('not_found');
    given(registered).when({ type: 'RotateToken', organization_id: 2, token: t2 }).thenThrows('not_found');
  });

  it('changes the grounding policy only when it differs', () => {
    given(registered)
      .when({ type: 'SetGroundingPolicy', organization_id: 1, grounding_policy: 'strict' })
      .then([]);
    given(registered)
      .when({ type: 'SetGroundingPolicy', organization_id: 1, grounding_policy: 'standard' })
      .then([
        {
          type: 'ConnectorGroundingPolicySet',
          data: { connector_id: 3, grounding_policy: 'standard', previous: 'strict' },
        },
      ]);
  });
});

describe('chatbot decider', () => {
  const chatbot = givenDecider(chatbotDecider);
  const created = {
    type: 'ChatbotCreated' as const,
    data: { chatbot_id: 5, organization_id: 1, name: 'Bot', allowed_domain: null },
  };

  it('pauses and resumes within its organization only', () => {
    chatbot([created])
      .when({ type: 'PauseChatbot', organization_id: 1 })
      .then([{ type: 'ChatbotPaused', data: { chatbot_id: 5, organization_id: 1 } }]);
    chatbot([created]).when({ type: 'PauseChatbot', organization_id: 2 }).thenThrows('not_found');
    chatbot([created]).when({ type: 'ResumeChatbot', organization_id: 1 }).then([]);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, UnauthenticatedError } from '../../common/errors';
import { streams } from '../../events/domain-event';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { sha256Hex, TOKEN_PATTERN } from '../connectors/connector-token';
import type { CommandContext } from '../shared/command-context';
import { StreamCommandExecutor } from '../shared/stream-command-executor';
import { operatorTokenDecider } from './operator-token.decider';
import { normalizeScopes, type OperatorScope } from './operator-scopes';

/** `cairn_op_` + 43 base64url characters = 256 random bits (never mistaken for a connector token). */
export const OPERATOR_TOKEN_PATTERN = /^cairn_op_[A-Za-z0-9_-]{43}$/;
const STREAM_PREFIX = streams.operatorToken('');
const INVALID = 'the bearer token is not a valid operator token (unknown or revoked)';

/** The operator of an admin request. */
export interface OperatorPrincipal {
  token_id: string;
  name: string;
  scopes: OperatorScope[];
}

export interface OperatorTokenSummary extends OperatorPrincipal {
  revoked: boolean;
}

/**
 * Operator tokens of the admin API: created on the server's shell (`admin-token:create`), stored as events on a
 * stream named by the token's SHA-256 (the token is shown once and never stored), checked on that stream on every
 * request so a revocation takes effect at once. No read model: a token is found by its digest.
 */
@Injectable()
export class OperatorTokens {
  constructor(
    private readonly executor: StreamCommandExecutor,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async create(
    name: string,
    scopes: readonly string[],
    context: CommandContext,
  ): Promise<OperatorPrincipal & { token: string }> {
    const token = `cairn_op_${randomBytes(32).toString('base64url')}`;
    const token_id = `otk_${randomUUID()}`;
    const normalized = normalizeScopes(scopes);
    await this.executor.executeNew(
      streams.operatorToken(sha256Hex(token)),
      operatorTokenDecider,
      { type: 'IssueOperatorToken', token_id, name: name.trim() || 'operator', scopes: normalized },
      context,
      { organizationId: null, waitFor: [] },
    );
    return { token_id, name: name.trim() || 'operator', scopes: normalized, token };
  }

  /** Every operator token ever issued (a scan of the token streams: an operator command, not a request path). */
  async list(): Promise<OperatorTokenSummary[]> {
    const found: OperatorTokenSummary[] = [];
    for await (const stream of this.events.listStreams()) {
      if (!stream.startsWith(STREAM_PREFIX)) continue;
      const { state } = await this.executor.load(stream, operatorTokenDecider);
      if (state.exists) {
        const { token_id, name, scopes, revoked } = state;
        found.push({ token_id, name, scopes: scopes as OperatorScope[], revoked });
      }
    }
    return found;
  }

  async revoke(tokenId: string, context: CommandContext): Promise<{ token_id: string; changed: boolean }> {
    for await (const stream of this.events.listStreams()) {
      if (!stream.startsWith(STREAM_PREFIX)) continue;
      const loaded = await this.executor.load(stream, operatorTokenDecider);
      if (!loaded.state.exists || loaded.state.token_id !== tokenId) continue;
      const done = await this.executor.execute(
        stream,
        operatorTokenDecider,
        { type: 'RevokeOperatorToken' },
        context,
        { organizationId: null, waitFor: [] },
      );
      return { token_id: tokenId, changed: done.events.length > 0 };
    }
    throw new NotFoundError('operator token not found', 'operator_token_not_found');
  }

  /**
   * The operator a bearer token belongs to. 401 `missing_token` without one; 401 `invalid_token` for an unknown or
   * revoked operator token, and for a connector token (a connector token never opens the admin API).
   */
  async authenticate(token: string | undefined): Promise<OperatorPrincipal> {
    if (token === undefined || token === '') {
      throw new UnauthenticatedError(
        'missing_token',
        'send the header Authorization: Bearer <operator token>',
      );
    }
    if (TOKEN_PATTERN.test(token)) {
      throw new UnauthenticatedError(
        'invalid_token',
        'a connector token cannot call the admin API; use an operator token (cairn_op_…, `cairn admin-token:create`)',
      );
    }
    if (!OPERATOR_TOKEN_PATTERN.test(token)) throw new UnauthenticatedError('invalid_token', INVALID);
    const { state } = await this.executor.loadLatest(
      streams.operatorToken(sha256Hex(token)),
      operatorTokenDecider,
    );
    if (!state.exists || state.revoked) throw new UnauthenticatedError('invalid_token', INVALID);
    return { token_id: state.token_id, name: state.name, scopes: state.scopes as OperatorScope[] };
  }
}

/** The bearer token of an Authorization header (undefined when absent or not `Bearer <token>`). */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.trim() === '') return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization);
  return match ? match[1] : 'malformed';
}

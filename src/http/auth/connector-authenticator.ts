import { Inject, Injectable } from '@nestjs/common';
import { UnauthenticatedError } from '../../common/errors';
import { connectorDecider } from '../../commands/connectors/connector.decider';
import { sameDigest, sha256Hex, TOKEN_PATTERN } from '../../commands/connectors/connector-token';
import { StreamCommandExecutor } from '../../commands/shared/stream-command-executor';
import { streams } from '../../events/domain-event';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { CONNECTOR_TOKENS, type ConnectorTokenDocument } from '../../projections/connectors.projection';
import type { ConnectorPrincipal } from './connector-principal';

const INVALID = 'the bearer token is not valid (unknown, revoked or superseded)';
/** Token digests whose connector this process remembers (the oldest forgotten first). */
const MAX_KNOWN_TOKENS = 10_000;

/**
 * Bearer token → connector → organization. The token's SHA-256 finds the connector through a read model, but the
 * decision is made on the connector's own stream, so a rotation or revocation takes effect at once everywhere.
 * A digest's connector never changes (tokens are random, connector ids never reused), so it is remembered; only
 * the stream is read on every request.
 */
@Injectable()
export class ConnectorAuthenticator {
  private readonly connectorOf = new Map<string, number>();

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly executor: StreamCommandExecutor,
  ) {}

  async authenticate(authorization: string | undefined): Promise<ConnectorPrincipal> {
    if (authorization === undefined || authorization.trim() === '') {
      throw new UnauthenticatedError('missing_token', 'send the header Authorization: Bearer <token>');
    }
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization);
    if (!match || !TOKEN_PATTERN.test(match[1])) throw new UnauthenticatedError('invalid_token', INVALID);
    const digest = sha256Hex(match[1]);
    const connectorId = await this.connectorFor(digest);
    if (connectorId === null) throw new UnauthenticatedError('invalid_token', INVALID);
    const { state } = await this.executor.loadLatest(streams.connector(connectorId), connectorDecider);
    if (!state.exists || !state.active_token || !sameDigest(state.active_token.token_sha256, digest)) {
      throw new UnauthenticatedError('invalid_token', INVALID);
    }
    return {
      connector_id: state.connector_id,
      organization_id: state.organization_id,
      name: state.name,
      client_key: state.client_key,
      capabilities: state.capabilities,
      grounding_policy: state.grounding_policy,
      token_id: state.active_token.token_id,
    };
  }

  /** The connector a token digest was issued to (null: none known to the read model). */
  private async connectorFor(digest: string): Promise<number | null> {
    const known = this.connectorOf.get(digest);
    if (known !== undefined) return known;
    const lookup = await this.readStore.get<ConnectorTokenDocument>(CONNECTOR_TOKENS, digest);
    if (!lookup) return null;
    if (this.connectorOf.size >= MAX_KNOWN_TOKENS) {
      this.connectorOf.delete(this.connectorOf.keys().next().value as string);
    }
    this.connectorOf.set(digest, lookup.connector_id);
    return lookup.connector_id;
  }
}

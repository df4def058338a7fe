import type { DomainEvent } from '../domain-event';

/** An operator token was issued (`admin-token:create`); its stream is named by the token's SHA-256. */
export type OperatorTokenIssued = DomainEvent<
  'OperatorTokenIssued',
  { token_id: string; name: string; scopes: string[] }
>;

/** The token stops authenticating, for good. */
export type OperatorTokenRevoked = DomainEvent<'OperatorTokenRevoked', { token_id: string }>;

export type OperatorTokenEvent = OperatorTokenIssued | OperatorTokenRevoked;

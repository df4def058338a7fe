import { ConflictError, NotFoundError } from '../../common/errors';
import type { OperatorTokenEvent } from '../../events/operator-tokens/operator-token.events';
import type { Decider } from '../shared/decider';

export type OperatorTokenCommand =
  | { type: 'IssueOperatorToken'; token_id: string; name: string; scopes: string[] }
  | { type: 'RevokeOperatorToken' };

export type OperatorTokenState =
  { exists: false } | { exists: true; token_id: string; name: string; scopes: string[]; revoked: boolean };

/** One operator token per stream (named by its SHA-256): issued once, revoked at most once. */
export const operatorTokenDecider: Decider<OperatorTokenCommand, OperatorTokenState, OperatorTokenEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    if (event.type === 'OperatorTokenIssued') return { exists: true, ...event.data, revoked: false };
    if (!state.exists) return state;
    return { ...state, revoked: true };
  },

  decide(command, state) {
    if (command.type === 'IssueOperatorToken') {
      if (state.exists) throw new ConflictError('operator_token_exists', 'this token was issued before');
      const { token_id, name, scopes } = command;
      return [{ type: 'OperatorTokenIssued', data: { token_id, name, scopes } }];
    }
    if (!state.exists) throw new NotFoundError('operator token not found', 'operator_token_not_found');
    if (state.revoked) return [];
    return [{ type: 'OperatorTokenRevoked', data: { token_id: state.token_id } }];
  },
};

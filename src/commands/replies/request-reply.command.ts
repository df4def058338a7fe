import type { ConnectorPrincipal } from '../../http/auth/connector-principal';
import type { CommandContext } from '../shared/command-context';

/** A validated reply request (spec §4.6), as the controller parsed it. */
export interface ReplyRequestInput {
  chatbot_id?: number;
  external_thread_id: string;
  external_message_id?: string;
  idempotency_key?: string;
  channel?: string;
  response_mode?: string;
  payload: {
    text: string;
    subject?: string;
    from?: string;
    to?: string;
    sent_at?: string;
    history?: Array<{ role: string; text: string }>;
  };
  metadata?: Record<string, unknown>;
}

export class RequestReplyCommand {
  constructor(
    readonly connector: ConnectorPrincipal,
    readonly input: ReplyRequestInput,
    readonly context: CommandContext,
  ) {}
}

/** The HTTP 200 body: a suggested reply (spec §2.5) or a system_status (spec §2.8). */
export type ReplyResultBody = Record<string, unknown> & { ok: boolean };

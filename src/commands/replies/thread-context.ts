/**
 * The structured, untrusted continuity context of a reply (spec §4.6 rule 5, invariant 4): subject, sender,
 * recipient, channel, sent time and at most MAX_HISTORY_ITEMS recent history items, roles normalized. It goes to
 * the composer as data inside the user message's JSON document; no role from a caller ever becomes a chat role
 * of the model call, and nothing here is evidence.
 */
import { MAX_HISTORY_ITEMS, type HistoryRole, type ThreadContext } from '../../ai/reply-model-contract';

export { MAX_HISTORY_ITEMS };

const ROLE_ALIASES: Record<HistoryRole, readonly string[]> = {
  customer: ['customer', 'user', 'client', 'contact', 'visitor', 'requester', 'end_user', 'enduser'],
  organization: ['organization', 'organisation', 'company', 'business', 'staff', 'support', 'owner', 'team'],
  assistant: ['assistant', 'ai', 'bot', 'chatbot', 'cairn'],
  agent: ['agent', 'human_agent', 'operator', 'representative', 'rep'],
  other: [],
};

const ROLE_BY_ALIAS = new Map<string, HistoryRole>(
  (Object.entries(ROLE_ALIASES) as Array<[HistoryRole, readonly string[]]>).flatMap(([role, aliases]) =>
    aliases.map((alias) => [alias, role] as const),
  ),
);

/** Any caller-given role → one of five; `system`, `developer`, `tool` and anything unknown become `other`. */
export function normalizeRole(role: string): HistoryRole {
  const key = role
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return ROLE_BY_ALIAS.get(key) ?? 'other';
}

export function threadContext(input: {
  subject?: string;
  from?: string;
  to?: string;
  channel: string;
  sent_at?: string;
  history?: ReadonlyArray<{ role: string; text: string }>;
}): ThreadContext {
  return {
    subject: input.subject ?? null,
    from: input.from ?? null,
    to: input.to ?? null,
    channel: input.channel,
    sent_at: input.sent_at ? new Date(input.sent_at).toISOString() : null,
    history: (input.history ?? [])
      .slice(-MAX_HISTORY_ITEMS)
      .map((item) => ({ role: normalizeRole(item.role), text: item.text })),
  };
}

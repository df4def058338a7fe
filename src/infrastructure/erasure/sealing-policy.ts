import type { EventData } from '../event-store/event-store.port';
import { subjects } from './data-key-store.port';
import { ERASED_TEXT } from './sealed-value';
import type { SealingScope } from './sealing-scope';

/**
 * Which fields of which event types are sealed, under whose keys (the list is in docs/audit.md "Erasure"). The
 * named top-level fields are sealed together as one value under `$sealed`; the other fields (ids, revisions,
 * statuses, digests, times) stay readable so deciders, projections and audits work after an erasure. `erased` is
 * what the sealed fields read as once a key is gone.
 */
export interface SealingRule {
  fields: readonly string[];
  subjects(data: EventData, organizationId: number | null, scope: SealingScope): string[];
  erased: EventData;
}

export const SEALED_FIELD = '$sealed';

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : null;

const orgSubject = (organizationId: number | null): string[] =>
  organizationId === null ? [] : [subjects.organization(organizationId)];

const item = (data: EventData): string[] => {
  const id = num(data.memory_item_id);
  return id === null ? [] : [subjects.memoryItem(id)];
};

/** The reply's conversation when known, else the organization. */
const conversationOrOrg = (organizationId: number | null, scope: SealingScope): string[] =>
  scope.conversation_id !== undefined
    ? [subjects.conversation(scope.conversation_id)]
    : orgSubject(organizationId);

const memoryContent: SealingRule = {
  fields: ['title', 'summary', 'content', 'chunks'],
  subjects: (data) => item(data),
  erased: { title: ERASED_TEXT, summary: '', content: '', chunks: [] },
};

export const SEALING_RULES: Readonly<Record<string, SealingRule>> = {
  MemoryItemCreated: memoryContent,
  MemoryItemRevised: memoryContent,
  MemoryContentPartRecorded: {
    fields: ['content', 'chunks'],
    subjects: (data) => item(data),
    erased: { content: '', chunks: [] },
  },
  MemoryProposalCaptured: {
    fields: ['title', 'content', 'cited'],
    subjects: (data, organizationId) => {
      const target = num(data.target_memory_item_id);
      const cited = num((data.cited as { memory_item_id?: unknown } | null | undefined)?.memory_item_id);
      // A new item's proposal under a key of its own, destroyed with the item its approval creates; a correction
      // under its target item's.
      const id = num(data.proposal_id);
      const own =
        target !== null
          ? [subjects.memoryItem(target)]
          : id !== null
            ? [subjects.proposal(id)]
            : orgSubject(organizationId);
      // A correction's text is the reader's suggested answer: its conversation's data as well, and (as the
      // feedback it came from) every item the corrected reply cited.
      const correction = data.correction as
        { conversation_id?: unknown; cited_memory_item_ids?: unknown } | null | undefined;
      const conversation = num(correction?.conversation_id);
      const replyCited = Array.isArray(correction?.cited_memory_item_ids)
        ? (correction.cited_memory_item_ids as unknown[]).map(num).filter((id): id is number => id !== null)
        : [];
      const items = [...new Set([cited, ...replyCited])].filter(
        (id): id is number => id !== null && id !== target,
      );
      return [
        ...own,
        ...items.map((id) => subjects.memoryItem(id)),
        ...(conversation === null ? [] : [subjects.conversation(conversation)]),
      ];
    },
    erased: { title: ERASED_TEXT, content: '', cited: null },
  },
  RecallTraceRecorded: {
    fields: ['query'],
    subjects: (_data, organizationId, scope) => conversationOrOrg(organizationId, scope),
    erased: { query: '' },
  },
  UserMessageRecorded: {
    fields: ['text'],
    subjects: (data) => conversationOf(data),
    erased: { text: ERASED_TEXT },
  },
  AssistantMessageRecorded: {
    fields: ['text'],
    subjects: (data, _org, scope) => [
      ...conversationOf(data),
      ...(scope.cited_item_ids ?? []).map((id) => subjects.memoryItem(id)),
    ],
    erased: { text: ERASED_TEXT },
  },
  ReplyCompleted: {
    fields: ['receipt'],
    subjects: (data, organizationId) => {
      const receipt = data.receipt as { conversation_id?: unknown; references?: unknown } | undefined;
      const conversation = num(receipt?.conversation_id);
      const references = Array.isArray(receipt?.references) ? (receipt.references as unknown[]) : [];
      const cited = references
        .map((r) => num((r as { memory_item_id?: unknown } | null)?.memory_item_id))
        .filter((id): id is number => id !== null);
      return [
        ...(conversation === null ? orgSubject(organizationId) : [subjects.conversation(conversation)]),
        ...[...new Set(cited)].map((id) => subjects.memoryItem(id)),
      ];
    },
    erased: { receipt: null },
  },
  ReplyFeedbackReserved: feedbackRule(),
  ReplyFeedbackSubmitted: feedbackRule(),
  ToolRunStarted: {
    fields: ['input'],
    subjects: (_data, organizationId, scope) => conversationOrOrg(organizationId, scope),
    erased: { input: {} },
  },
  ToolRunSucceeded: {
    fields: ['output'],
    subjects: (_data, organizationId, scope) => conversationOrOrg(organizationId, scope),
    erased: { output: {} },
  },
};

function conversationOf(data: EventData): string[] {
  const id = num(data.conversation_id);
  return id === null ? [] : [subjects.conversation(id)];
}

/** A reader's feedback: the conversation's, and every item the reply cited (its correction goes with them). */
function feedbackRule(): SealingRule {
  return {
    fields: ['suggested_answer', 'note', 'feedback_issue'],
    subjects: (data, _org, scope) => [
      ...conversationOf(data),
      ...(scope.cited_item_ids ?? []).map((id) => subjects.memoryItem(id)),
    ],
    erased: { suggested_answer: null, note: null, feedback_issue: null },
  };
}

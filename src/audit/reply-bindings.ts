import { conversationThreadDigest } from '../commands/replies/reply-identity';
import { toolRunStream } from '../commands/replies/reply-tools';
import { streams as streamNames } from '../events/domain-event';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ReplyView } from '../projections/replies.projection';

/** Why a stream is bound to a reply (the `role` audit:reply prints). */
export type BindingRole =
  | 'request'
  | 'identity claim'
  | 'thread binding'
  | 'conversation'
  | 'recall trace'
  | 'tool run'
  | 'feedback'
  | 'feedback claim'
  | 'correction proposal'
  | 'cited memory item'
  | 'quota';

export interface Binding {
  stream: string;
  role: BindingRole;
  /** Which of the stream's events concern this reply (the whole stream's chain is verified regardless). */
  keep: (event: RecordedEvent) => boolean;
  /** A required stream that reads empty is a failure (a deleted stream); optional ones are skipped. */
  required: boolean;
  /** For a cited memory item: the item and the revision the reply cited. */
  cited?: { memory_item_id: number; revision: number };
}

type ReceiptFields = {
  conversation_id?: number;
  memory_recall_trace_id?: number;
  references?: Array<{ memory_item_id: number; revision: number }>;
  tool_evidence?: Array<{ tool_key: string; input_sha256: string }>;
};

const all = () => true;

/**
 * The streams the request stream's own events bind (thread, conversation, recall trace, tool runs, cited items),
 * read from its events, not from the rebuildable view: an edited view cannot hide one. The view adds only what a
 * request stream does not name (claim streams, feedback streams).
 */
export function requestBindings(view: ReplyView, requestEvents: RecordedEvent[]): Binding[] {
  const mine = (e: RecordedEvent) => e.data.reply_id === view.reply_id;
  const requested = requestEvents.find((e) => e.type === 'ReplyRequested')?.data ?? {};
  const receipts = requestEvents
    .filter((e) => e.type === 'ReplyCompleted')
    .map((e) => (e.data.receipt ?? {}) as ReceiptFields);
  const out: Binding[] = [];
  const add = (binding: Binding) => {
    if (!out.some((b) => b.stream === binding.stream)) out.push(binding);
  };
  const scope = {
    organization_id: Number(requested.organization_id ?? view.organization_id),
    connector_id: Number(requested.connector_id ?? view.connector_id),
    chatbot_id: Number(requested.chatbot_id ?? view.chatbot_id),
  };
  const thread = String(requested.external_thread_id ?? view.external_thread_id);
  add({
    stream: streamNames.conversationThread(
      conversationThreadDigest({ ...scope, external_thread_id: thread }),
    ),
    role: 'thread binding',
    keep: all,
    required: receipts.length > 0 || view.conversation_id !== null,
  });
  for (const id of new Set([...receipts.map((r) => r.conversation_id), view.conversation_id])) {
    if (typeof id === 'number')
      add({ stream: streamNames.conversation(id), role: 'conversation', keep: mine, required: true });
  }
  for (const id of new Set([...receipts.map((r) => r.memory_recall_trace_id), view.trace_id])) {
    if (typeof id === 'number')
      add({ stream: streamNames.recallTrace(id), role: 'recall trace', keep: all, required: true });
  }
  for (const receipt of receipts) {
    for (const run of receipt.tool_evidence ?? []) {
      const stream = toolRunStream({ ...scope, reply_id: view.reply_id, ...run });
      add({ stream, role: 'tool run', keep: all, required: true });
    }
  }
  const cited = [...receipts.flatMap((r) => r.references ?? []), ...view.references];
  for (const { memory_item_id, revision } of cited) {
    add({
      stream: streamNames.memoryItem(memory_item_id),
      role: 'cited memory item',
      keep: all,
      required: true,
      cited: { memory_item_id, revision },
    });
  }
  return out;
}

/** Feedback streams (from the view), their claim streams when recorded, and the proposals their events name. */
export function feedbackBindings(view: ReplyView, read: (stream: string) => RecordedEvent[]): Binding[] {
  const out: Binding[] = [];
  for (const feedback of view.feedback) {
    out.push({ stream: feedback.stream, role: 'feedback', keep: all, required: true });
    const claims = (feedback as { claim_streams?: unknown }).claim_streams;
    for (const stream of Array.isArray(claims) ? claims : []) {
      if (typeof stream === 'string') out.push({ stream, role: 'feedback claim', keep: all, required: true });
    }
    const proposals = new Set<unknown>([
      feedback.proposal_id,
      ...read(feedback.stream).map((e) => e.data.proposal_id),
    ]);
    for (const id of proposals) {
      if (typeof id !== 'number') continue;
      const stream = streamNames.memoryProposal(id);
      if (!out.some((b) => b.stream === stream))
        out.push({ stream, role: 'correction proposal', keep: all, required: true });
    }
  }
  return out;
}

/** The quota streams of the month the reply was requested in and the next (an attempt may cross midnight). */
export function quotaBindings(view: ReplyView): Binding[] {
  const at = new Date(view.requested_at);
  return [0, 1].map((add) => {
    const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + add, 1));
    const period = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    return {
      stream: streamNames.replyQuota(view.organization_id, period),
      role: 'quota',
      keep: (e: RecordedEvent) => e.data.reply_id === view.reply_id,
      required: false,
    };
  });
}

/** Where a cited memory item's stream stands against the revision the reply cited. */
export interface CitedRevision {
  memory_item_id: number;
  cited_revision: number;
  /** The stream revision of the event that recorded the cited item revision (null: none does). */
  cited_event_revision: number | null;
  /** The item's newest revision now, and whether it has moved past the cited one or been archived since. */
  current_revision: number | null;
  moved_on: boolean;
  archived: boolean;
}

export function citedRevision(
  cited: { memory_item_id: number; revision: number },
  history: RecordedEvent[],
): CitedRevision {
  const contents = history.filter((e) => e.type === 'MemoryItemCreated' || e.type === 'MemoryItemRevised');
  const event = contents.find((e) => e.data.revision === cited.revision);
  const current = contents.at(-1)?.data.revision;
  const currentRevision = typeof current === 'number' ? current : null;
  return {
    memory_item_id: cited.memory_item_id,
    cited_revision: cited.revision,
    cited_event_revision: event?.revision ?? null,
    current_revision: currentRevision,
    moved_on: currentRevision !== null && currentRevision > cited.revision,
    archived: history.some((e) => e.type === 'MemoryItemArchived'),
  };
}

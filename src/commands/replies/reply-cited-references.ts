import { streams } from '../../events/domain-event';
import type { ReadStore } from '../../infrastructure/read-store/read-store.port';
import { REPLIES, type ReplyView } from '../../projections/replies.projection';
import type { StreamCommandExecutor } from '../shared/stream-command-executor';
import { isReplayableReceiptV2, type ReceiptReference } from './reply-receipt';
import { replyRequestDecider } from './reply-request.decider';

/**
 * The references a completed reply cited, from its receipt on the request stream: named by the assistant message (its
 * look-up is fed before the reply answers), else found through the reply's receipt view (older messages). None for a
 * reply that did not complete, of another organization, or whose receipt is unreadable (erased with a cited item).
 */
export async function replyCitedReferences(
  executor: Pick<StreamCommandExecutor, 'load'>,
  readStore: Pick<ReadStore, 'get'>,
  reply: { organizationId: number; replyId: number; requestDigest: string | null },
): Promise<ReceiptReference[]> {
  const { organizationId, replyId, requestDigest } = reply;
  let stream = requestDigest === null ? null : streams.replyRequest(requestDigest);
  if (stream === null) {
    const view = await readStore.get<ReplyView>(REPLIES, String(replyId));
    if (!view || view.organization_id !== organizationId) return [];
    stream = view.request_stream;
  }
  const { state } = await executor.load(stream, replyRequestDecider);
  if (
    state.status !== 'completed' ||
    state.reply_id !== replyId ||
    state.request?.organization_id !== organizationId
  )
    return [];
  if (!state.receipt || !isReplayableReceiptV2(state.receipt)) return [];
  return state.receipt.references;
}

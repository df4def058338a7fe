import { streams } from '../../events/domain-event';
import type { StreamCommandExecutor } from '../shared/stream-command-executor';
import type { CorrectionTarget } from './approval-plan';
import type { ErasedMemoryItems } from './erased-memory-items';
import { memoryItemDecider, type MemoryItemState } from './memory-item.decider';

export type LoadedTarget = {
  item: Extract<MemoryItemState, { exists: true }> | null;
  snapshot: CorrectionTarget | null;
};

/** A correction's target item as it stands, and as planApproval sees it (nulls when it does not exist). */
export async function loadCorrectionTarget(
  executor: StreamCommandExecutor,
  erasures: ErasedMemoryItems,
  memoryItemId: number,
  proposalId: number,
): Promise<LoadedTarget> {
  const { state } = await executor.load(streams.memoryItem(memoryItemId), memoryItemDecider);
  if (!state.exists) return { item: null, snapshot: null };
  const erased = await erasures.erased(state.organization_id, memoryItemId);
  return {
    item: state,
    snapshot: {
      organization_id: state.organization_id,
      revision: state.revision,
      archived: state.archived,
      erased,
      content: state.content,
      audience: state.audience,
      authority_level: state.authority_level,
      applied: state.applied_proposal_ids.includes(proposalId),
    },
  };
}

/**
 * A line diff of one contiguous change (what a span replacement makes): up to `context` unchanged lines around it
 * (prefixed with two spaces), removed lines with "- ", added ones with "+ ".
 */
export function lineDiff(before: string, after: string, context = 2): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  if (start === a.length && start === b.length) return [];
  return [
    ...a.slice(Math.max(0, start - context), start).map((line) => `  ${line}`),
    ...a.slice(start, endA).map((line) => `- ${line}`),
    ...b.slice(start, endB).map((line) => `+ ${line}`),
    ...a.slice(endA, Math.min(a.length, endA + context)).map((line) => `  ${line}`),
  ];
}

import type { ReplyComposer } from '../../src/ai/reply-composer';

/** The draft of a compose call that must not ask for tools. */
export async function draftOnly(pending: ReturnType<ReplyComposer['compose']>) {
  const result = await pending;
  if (result.kind !== 'draft') throw new Error(`expected a draft, got ${result.kind}`);
  return result;
}

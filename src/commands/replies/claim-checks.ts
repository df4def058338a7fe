import type { DraftClaim } from '../../ai/reply-model-contract';
import { extractFigures, rangesAcrossQuotes, unsupportedFigures } from '../../grounding/claim-figures';
import { quoteContext, quoteProblem } from '../../grounding/claim-quotes';
import { attachmentProblem } from '../../grounding/claim-attachment';
import { scopeProblem } from '../../grounding/claim-scope';
import { wordingProblem } from '../../grounding/claim-wording';
import { quoteSourceProblem } from '../../grounding/quote-sources';
import { ReplyAbort } from './reply-abort';
import type { EvidenceItem } from './reply-evidence';
import type { ToolEvidence } from './reply-toolbox';

/*
 * Cairn's own checks of a draft's claims, whatever either model says (ARCHITECTURE invariant 3, docs/grounding.md):
 * each claim's quotes are in the references it cites, the sources its figures come from may ground the reply, and its
 * figures and wording are those of its own quotes.
 */
/**
 * The quote check (grounding/claim-quotes.ts) as a refusal: a quote naming a reference its claim does not cite is a
 * citation error (`selected_references_invalid`); a claim without a quote, or a quote not found verbatim in its
 * reference, is an unsupported claim (`semantic_review_failed`). Null when every quote holds.
 */
export function quoteAbort(
  claims: ReadonlyArray<Pick<DraftClaim, 'reference_ids' | 'quotes'>>,
  excerptOf: ReadonlyMap<string, string>,
): ReplyAbort | null {
  const views = new Map<string, string>();
  for (const [i, claim] of claims.entries()) {
    const problem = quoteProblem(claim, (id) => excerptOf.get(id), views);
    if (problem === null) continue;
    if (problem.kind === 'uncited')
      return new ReplyAbort(
        'selected_references_invalid',
        `claim ${i + 1} quotes a reference it does not cite`,
      );
    return new ReplyAbort(
      'semantic_review_failed',
      problem.kind === 'missing'
        ? `claim ${i + 1} quotes no evidence`
        : `claim ${i + 1}: quote ${problem.quote + 1} is not in the evidence it names`,
    );
  }
  return null;
}

/**
 * Sources per figure (grounding/quote-sources.ts): each quote of a claim that states a figure is a source that can
 * ground the reply on its own (or a tool result of this reply). Null when every one is; else the refusal: a lower
 * authority than the policy asks → `authoritative_evidence_insufficient`, an ineligible or superseded source →
 * `semantic_review_failed`.
 */
export function sourceAbort(
  claims: ReadonlyArray<Pick<DraftClaim, 'text' | 'quotes'>>,
  evidence: readonly EvidenceItem[],
  tools: ReadonlyMap<string, ToolEvidence>,
  strict: boolean,
): ReplyAbort | null {
  const references = evidence.map((e) => e.reference);
  const byId = new Map(references.map((r) => [r.reference_id, r]));
  for (const [i, claim] of claims.entries()) {
    if (extractFigures(claim.text).length === 0) continue;
    for (const quote of claim.quotes) {
      if (tools.has(quote.reference_id)) continue;
      const problem = quoteSourceProblem(byId.get(quote.reference_id), references, strict);
      if (problem === null) continue;
      const why = `claim ${i + 1} takes a figure from a source that is ${problem.replace('_', ' ')}`;
      return new ReplyAbort(
        problem === 'not_authoritative' ? 'authoritative_evidence_insufficient' : 'semantic_review_failed',
        why,
      );
    }
  }
  return null;
}

/**
 * Cairn's own checks of each claim against its own quotes (grounding/): its figures are figures of its quotes, of the
 * same kind, value and unit; and its wording (no instruction, the polarity and conditions of its quotes, its words
 * from its quotes or the question). Null when all hold; else why not (never quoting the claim or its values).
 */
export function checkClaims(
  claims: ReadonlyArray<Pick<DraftClaim, 'text' | 'quotes'>>,
  question: string,
  excerptOf: ReadonlyMap<string, string>,
): string | null {
  for (const [i, claim] of claims.entries()) {
    const quotes = claim.quotes.map((q) => q.text);
    const missing = unsupportedFigures(claim.text, quotes);
    if (missing.length > 0) {
      const kinds = [...new Set(missing.map((figure) => figure.kind))].join(', ');
      return `claim ${i + 1} states figures its quotes do not (${kinds})`;
    }
    if (rangesAcrossQuotes(claim.text, quotes).length > 0)
      return `claim ${i + 1} states a range whose ends no single quote states together`;
    const context = claim.quotes.map((q) => quoteContext(q.text, excerptOf.get(q.reference_id) ?? ''));
    const wording = wordingProblem(claim.text, quotes, question, context);
    if (wording !== null) return `claim ${i + 1} fails the ${wording} check against its quotes`;
    const scope = scopeProblem(claim.text, quotes, question, context);
    if (scope !== null) return `claim ${i + 1} fails the ${scope} check against its quotes`;
    const attachment = attachmentProblem(claim.text, quotes);
    if (attachment !== null) return `claim ${i + 1} fails the ${attachment} check against its quotes`;
  }
  return null;
}

import { evidenceFigures, unsupportedFiguresIn, type EvidenceFigures } from '../../grounding/claim-figures';
import { citedWording, wordingProblemIn, type CitedWording } from '../../grounding/claim-wording';

/**
 * Cairn's own checks of each claim against the text it cites (grounding/): its figures are there, and its wording
 * (no instruction, no negation the text lacks, most of its words). Null when all hold; else why not (never quoting
 * the claim or its values).
 */
export function checkClaims(
  claims: ReadonlyArray<{ text: string; reference_ids: string[] }>,
  excerptOf: ReadonlyMap<string, string>,
): string | null {
  // What the checks need of the cited texts is read once per set of references, however many claims cite it.
  const read = new Map<string, { figures?: EvidenceFigures; wording?: CitedWording }>();
  for (const [i, claim] of claims.entries()) {
    const key = [...claim.reference_ids].sort().join('\n');
    const cited = read.get(key) ?? {};
    read.set(key, cited);
    const texts = claim.reference_ids.map((id) => excerptOf.get(id) ?? '');
    const missing = unsupportedFiguresIn(claim.text, () => (cited.figures ??= evidenceFigures(texts)));
    if (missing.length > 0) {
      const kinds = [...new Set(missing.map((figure) => figure.kind))].join(', ');
      return `claim ${i + 1} states figures its cited evidence does not (${kinds})`;
    }
    const wording = wordingProblemIn(claim.text, () => (cited.wording ??= citedWording(texts)));
    if (wording !== null) return `claim ${i + 1} fails the ${wording} check against its cited evidence`;
  }
  return null;
}

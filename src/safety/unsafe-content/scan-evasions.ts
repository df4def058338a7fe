import { findEncodedBlocks } from './encoded-blocks';
import type { RawFinding } from './rules/finding';
import { compatibilityView, identityView, joinedView, toOriginal, type ScanView } from './scan-views';

type DetectAll = (text: string) => Promise<RawFinding[]>;

/**
 * Rules whose findings in a joined or decoded view are not trusted: generic heuristics that joining lines or
 * decoding bytes can satisfy by accident. Named token formats, private keys, hashes and assignments still count.
 */
const GENERIC_RULES: ReadonlySet<string> = new Set(['high_entropy_string']);
const GENERIC_KINDS: ReadonlySet<string> = new Set(['personal_data_dump', 'credential_context']);

function specific(finding: RawFinding): boolean {
  return !GENERIC_RULES.has(finding.rule) && !GENERIC_KINDS.has(finding.kind);
}

function mapped(view: ScanView, finding: RawFinding, description = finding.description): RawFinding {
  return { ...finding, ...toOriginal(view, finding.start, finding.end), description };
}

/**
 * Findings that formatting hid from the detectors (issue 20), as spans of the original text:
 * 1. the NFKC view with invisible characters removed (fullwidth letters, zero-width characters inside a key);
 * 2. that view with tokens split over lines joined (only findings that span a join, specific rules only);
 * 3. base64 and hex blocks of either view, decoded, when they decode to text (specific rules only), reported at
 *    the encoded block.
 * Findings the original already has are removed later by the scanner's de-duplication (same span).
 */
export async function detectEvasions(text: string, detectAll: DetectAll): Promise<RawFinding[]> {
  const findings: RawFinding[] = [];
  const compatible = compatibilityView(text);
  const base = compatible ?? identityView(text);
  if (compatible) findings.push(...(await detectAll(compatible.text)).map((f) => mapped(compatible, f)));

  const joined = joinedView(base);
  if (joined) {
    for (const finding of await detectAll(joined.text)) {
      const span = toOriginal(joined, finding.start, finding.end);
      const spansJoin = span.end - span.start > finding.end - finding.start;
      if (specific(finding) && spansJoin) findings.push({ ...finding, ...span });
    }
  }

  for (const block of findEncodedBlocks(base.text)) {
    const inner = (await detectAll(block.decoded)).filter(specific);
    if (inner.length === 0) continue;
    const span = toOriginal(base, block.start, block.end);
    for (const finding of inner) {
      findings.push({
        ...finding,
        ...span,
        description: `${finding.description} (inside a ${block.encoding}-encoded block)`,
      });
    }
  }
  return findings;
}

import { findEncodedBlocks } from './encoded-blocks';
import type { RawFinding } from './rules/finding';
import { tokenHalves } from './token-halves';
import { markupStrippedView, unescapedView } from './unescaped-view';
import { compatibilityView, identityView, joinedView, toOriginal, type ScanView } from './scan-views';

type DetectAll = (text: string) => Promise<RawFinding[]>;

/**
 * Rules whose findings in a joined or decoded view are not trusted: generic heuristics that joining lines or
 * decoding bytes can satisfy by accident. Named token formats, private keys, hashes and assignments still count.
 */
const GENERIC_RULES: ReadonlySet<string> = new Set(['high_entropy_string']);
/** Encoded blocks found inside decoded blocks (double encoding) that are scanned, per field. */
const MAX_NESTED_BLOCKS = 16;
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

  // Escapes decoded in place, twice (`%255C` → `%5C` → `\`); specific rules only.
  let escaped = unescapedView(base);
  for (let round = 0; escaped !== null && round < 2; round++) {
    for (const finding of await detectAll(escaped.text)) {
      if (specific(finding)) findings.push(mapped(escaped, finding));
    }
    escaped = unescapedView(escaped);
  }

  // Markup inside tokens removed (emphasis markers, `\_`, `<wbr>`, ANSI colours); specific rules only.
  const stripped = markupStrippedView(base);
  if (stripped) {
    for (const finding of await detectAll(stripped.text)) {
      if (specific(finding)) findings.push(mapped(stripped, finding));
    }
  }

  // A token given in two halves in one sentence: the halves joined and scanned alone; named rules only.
  for (const halves of tokenHalves(base.text)) {
    const inner = (await detectAll(halves.joined)).filter(specific);
    const span = toOriginal(base, halves.start, halves.end);
    for (const finding of inner) {
      findings.push({ ...finding, ...span, description: `${finding.description} (given in two parts)` });
    }
  }

  let nestedLeft = MAX_NESTED_BLOCKS;
  for (const block of findEncodedBlocks(base.text)) {
    // Double encoding (base64 of base64, base64 of hex): one level more, at most MAX_NESTED_BLOCKS per field.
    const nested = findEncodedBlocks(block.decoded)
      .slice(0, Math.max(0, nestedLeft))
      .map((inside) => inside.decoded);
    nestedLeft -= nested.length;
    const inner: RawFinding[] = [];
    for (const decoded of [block.decoded, ...nested])
      inner.push(...(await detectAll(decoded)).filter(specific));
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

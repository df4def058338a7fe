import { detectCredentialContext } from './rules/credential-context.rule';
import { CREDENTIAL_KINDS, KIND_PRIORITY, type RawFinding } from './rules/finding';
import { detectPrivateKeys, keyMaterialMasks, type Span } from './rules/private-key.rule';
import { TEXT_DETECTORS } from './rules/text-detectors';
import { detectWithSecretlint } from './secretlint-runner';
import { detectEvasions } from './scan-evasions';
import { characterCount, TextPositions } from './text-positions';

export interface UnsafeFlag {
  /**
   * What was found: 'secret' | 'private_key' | 'password_hash' | 'card_number' | 'personal_data_dump' |
   * 'credential_context' (see `FindingKind` in ./rules/finding.ts for what each means; `credential_context` is
   * only ever reported together with a credential in the same field).
   */
  kind: string;
  /** The rule that matched, e.g. 'aws_access_key_id', 'github_token', 'jwt', 'password_in_url', 'luhn_card_number', 'email_address_dump', 'phone_number_dump', or a secretlint rule id. */
  rule: string;
  /** The input field it was found in (a key of the scanned record, e.g. 'content', 'title'). */
  field: string;
  /** 1-based line and column of the finding's start within that field, and its length in characters. */
  line: number;
  column: number;
  length: number;
  /** Human text naming the kind; it NEVER contains the secret or any part of it. */
  message: string;
}

/**
 * Per-field scan-time budget (issue 29). Every detector is linear, so a 100,000-character field scans in tens of
 * milliseconds; the budget is a fail-closed backstop (a detector regression, a pathological input no test
 * foresaw, a starved CPU): a field whose scan passes it is refused with one `scan_budget_exceeded` flag instead of
 * holding a worker. Checked between detectors (a single detector cannot be interrupted).
 */
export const DEFAULT_SCAN_BUDGET_MS = 2_000;

/** The rule and kind of the flag reported when a field's scan passes its budget. */
export const SCAN_BUDGET_EXCEEDED = 'scan_budget_exceeded';

class ScanBudgetExceeded extends Error {}

/** Throws `ScanBudgetExceeded` once the deadline has passed. */
type Checkpoint = () => void;

function checkpointFor(budgetMs: number): Checkpoint {
  const deadline = performance.now() + budgetMs;
  return () => {
    if (performance.now() > deadline) throw new ScanBudgetExceeded();
  };
}

/** Generic rules lose ties against named ones when spans overlap. */
const GENERIC_RANK: Record<string, number> = {
  password_assignment: 1,
  secret_assignment: 1,
  pgpass_entry: 1,
  password_in_login_call: 1,
  high_entropy_string: 2,
};

const KIND_LABEL: Record<string, string> = {
  secret: 'secret',
  private_key: 'private key',
  password_hash: 'password hash',
  card_number: 'payment card number',
  personal_data_dump: 'bulk personal data',
  credential_context: 'credential context',
  [SCAN_BUDGET_EXCEEDED]: 'scan time budget exceeded',
};

/**
 * Scans the text fields of a record for unsafe content (secrets, private keys, password hashes, card numbers, bulk
 * personal data), each field within `budgetMs` (fail closed: a field past it gets one `scan_budget_exceeded`
 * flag). Findings name kind, rule and location, never the value. Runs wherever it is called: the scanner service
 * calls it in its own thread or in a scan thread (scan-thread.ts).
 */
export async function scanFields(fields: Record<string, string>, budgetMs: number): Promise<UnsafeFlag[]> {
  const names = Object.keys(fields).sort();
  const perField = await Promise.all(
    names.map((field) => {
      const text = fields[field];
      return typeof text === 'string' && text.length > 0
        ? scanField(field, text, budgetMs)
        : Promise.resolve([]);
    }),
  );
  return perField.flat();
}

async function scanField(field: string, original: string, budgetMs: number): Promise<UnsafeFlag[]> {
  try {
    return await detectInField(field, original, checkpointFor(budgetMs));
  } catch (error) {
    if (!(error instanceof ScanBudgetExceeded)) throw error;
    return [budgetFlag(field, original, budgetMs)];
  }
}

async function detectInField(field: string, original: string, checkpoint: Checkpoint): Promise<UnsafeFlag[]> {
  const positions = new TextPositions(original);
  // Detectors see `\n` line ends only: CRLF becomes ` \n` and a lone CR `\n` (same length, so offsets hold).
  const text = original.replace(/\r\n?/g, (crlf) => (crlf.length === 2 ? ' \n' : '\n'));
  const detect = (view: string): Promise<RawFinding[]> => detectAll(view, checkpoint);
  const raw = [...(await detect(text)), ...(await detectEvasions(text, detect))];
  const credentialLines: number[] = [];
  for (const finding of raw) {
    if (!CREDENTIAL_KINDS.has(finding.kind)) continue;
    const first = positions.lineIndexOf(finding.start);
    const last = positions.lineIndexOf(finding.end - 1);
    for (let line = first; line <= last; line++) credentialLines.push(line);
  }
  raw.push(...detectCredentialContext(text, (offset) => positions.lineIndexOf(offset), credentialLines));
  // In offset order, so positions are counted forward along each line once (not from the line start each time).
  return deduplicate(raw)
    .sort((a, b) => a.start - b.start)
    .map((finding) => toFlag(field, original, finding, positions));
}

/**
 * Every detector on one text: private keys first (their key material masks the other rules' findings). The
 * checkpoint runs after each detector.
 */
async function detectAll(text: string, checkpoint: Checkpoint): Promise<RawFinding[]> {
  checkpoint();
  const privateKeys = detectPrivateKeys(text);
  const masked = maskTest(keyMaterialMasks(text, privateKeys));
  checkpoint();
  const findings = [...privateKeys, ...(await detectWithSecretlint(text))];
  for (const detect of TEXT_DETECTORS) {
    checkpoint();
    findings.push(...detect(text));
  }
  checkpoint();
  return findings.filter(
    (finding) => finding.end > finding.start && (finding.kind === 'private_key' || !masked(finding.start)),
  );
}

/** Whether an offset lies in one of the spans: spans merged and sorted once, then a binary search per offset. */
function maskTest(spans: Span[]): (offset: number) => boolean {
  const merged: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return (offset) => {
    let low = 0;
    let high = merged.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (offset < merged[mid]!.start) high = mid - 1;
      else if (offset >= merged[mid]!.end) low = mid + 1;
      else return true;
    }
    return false;
  };
}

/** The one flag of a field whose scan passed its budget: the whole field, refused (fail closed). */
export function budgetFlag(field: string, text: string, budgetMs: number): UnsafeFlag {
  return {
    kind: SCAN_BUDGET_EXCEEDED,
    rule: SCAN_BUDGET_EXCEEDED,
    field,
    line: 1,
    column: 1,
    length: characterCount(text),
    message: `Unsafe content (${KIND_LABEL[SCAN_BUDGET_EXCEEDED]}): the field could not be scanned within ${budgetMs} ms, so it is refused. Shorten or split it.`,
  };
}

/** Keeps one finding per overlapping span: the most specific kind, then a named rule over a generic one. */
function deduplicate(findings: RawFinding[]): RawFinding[] {
  const ordered = [...findings].sort(
    (a, b) =>
      KIND_PRIORITY[a.kind] - KIND_PRIORITY[b.kind] ||
      (GENERIC_RANK[a.rule] ?? 0) - (GENERIC_RANK[b.rule] ?? 0) ||
      a.start - b.start ||
      b.end - a.end,
  );
  // Kept spans never overlap, so in start order their ends ascend too: one binary search per candidate.
  const kept: RawFinding[] = [];
  for (const finding of ordered) {
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (kept[mid]!.end <= finding.start) low = mid + 1;
      else high = mid;
    }
    // kept[low] is the first span ending after the candidate starts; it overlaps unless it starts after its end.
    if (low < kept.length && kept[low]!.start < finding.end) continue;
    kept.splice(low, 0, finding);
  }
  return kept;
}

function toFlag(field: string, text: string, finding: RawFinding, positions: TextPositions): UnsafeFlag {
  const { line, column } = positions.position(finding.start);
  const label = KIND_LABEL[finding.kind] ?? finding.kind;
  let message = `Unsafe content (${label}): ${finding.description}. The value is withheld.`;
  // Defence in depth: a description must never echo the matched text.
  const matched = text.slice(finding.start, finding.end);
  if (matched.trim().length >= 4 && message.includes(matched.trim())) message = `Unsafe content (${label}).`;
  return {
    kind: finding.kind,
    rule: finding.rule,
    field,
    line,
    column,
    length: characterCount(text.slice(finding.start, finding.end)),
    message,
  };
}

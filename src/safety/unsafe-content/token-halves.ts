/**
 * A provider token given in two halves in one sentence (issue 29: "the first half is ghp_JsTt… and the rest is
 * 0pG7…"). For each run that starts with a provider prefix (at most MAX_HEADS per field), the next token-like run
 * on the same line within MAX_GAP characters (8+ characters holding a digit) is appended; the joined candidate is
 * scanned on its own, and only named rules count, so two ordinary words cannot make a finding. Linear: a bounded
 * window per head.
 */
const HEAD =
  /(?<![A-Za-z0-9_-])(?:gh[pousr]_|github_pat_|glpat-|[sr]k_live_|xox[abposr]-|sk-(?:proj-|ant-)?)[A-Za-z0-9_-]{4,80}/g;
const TAIL = /[A-Za-z0-9_-]{8,120}/g;
const MAX_HEADS = 16;
const MAX_GAP = 80;

export interface JoinedHalves {
  start: number;
  end: number;
  joined: string;
}

export function tokenHalves(text: string): JoinedHalves[] {
  const candidates: JoinedHalves[] = [];
  for (const head of text.matchAll(HEAD)) {
    if (candidates.length >= MAX_HEADS) break;
    const headEnd = head.index + head[0].length;
    const lineEnd = text.indexOf('\n', headEnd);
    const window = text.slice(headEnd, Math.min(headEnd + MAX_GAP, lineEnd < 0 ? text.length : lineEnd));
    for (const tail of window.matchAll(TAIL)) {
      if (!/\d/.test(tail[0])) continue;
      const before = window[tail.index - 1];
      if (before !== undefined && /[A-Za-z0-9_-]/.test(before)) continue;
      candidates.push({
        start: head.index,
        end: headEnd + tail.index + tail[0].length,
        joined: head[0] + tail[0],
      });
      break;
    }
  }
  return candidates;
}

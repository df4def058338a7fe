import { extractAssignments, keyWords } from './assignments';
import type { RawFinding } from './finding';
import { isPlaceholder } from './value-heuristics';

/**
 * Connection details next to a credential: when a field contains a credential finding, assignments within
 * CONTEXT_LINES lines of it whose key names a user, login, email, host, server, URL, database, bucket or remote
 * path are reported too (`credential_context`), so the whole credential set gets removed, not just the password.
 * Never reported on their own: a host name or an email address alone is not unsafe.
 */
export const CONTEXT_LINES = 10;

const CONTEXT_WORD =
  /^(?:[a-z]*(?:user|username|login|hostname|email)|[a-z]{0,6}host|server|url|uri|endpoint|database|(?:db|database)name|bucket|nick|nickname|remote|db)$/;

function isContextKey(key: string): boolean {
  const words = keyWords(key);
  const last = words[words.length - 1] ?? '';
  const previous = words[words.length - 2] ?? '';
  if (CONTEXT_WORD.test(last)) return true;
  if (last === 'name' && /^(?:db|database|user|host|server|bucket)$/.test(previous)) return true;
  return (last === 'path' || last === 'dir') && previous === 'remote';
}

const COMMENT_MARKER = /^(?:#|\/\/|--|;|\/\*|\*)/;

/**
 * Comment lines (`#`, `//`, `--`, `;`, `/*`, `*`) document settings; their values are not context. The first
 * non-blank character of each line is found once (a long indentation is not re-read for every value on its line).
 */
function commentCheck(text: string, lineOf: (offset: number) => number): (offset: number) => boolean {
  const firstNonBlank = new Map<number, number>();
  return (offset) => {
    const line = lineOf(offset);
    let first = firstNonBlank.get(line);
    if (first === undefined) {
      first = text.lastIndexOf('\n', offset - 1) + 1;
      while (first < text.length && /[^\S\n]/.test(text[first]!)) first++;
      firstNonBlank.set(line, first);
    }
    return first < offset && COMMENT_MARKER.test(text.slice(first, Math.min(offset, first + 2)));
  };
}

/** `lineOf(offset)` gives the 0-based line of an offset; `credentialLines` the lines holding credentials. */
export function detectCredentialContext(
  text: string,
  lineOf: (offset: number) => number,
  credentialLines: number[],
): RawFinding[] {
  if (credentialLines.length === 0) return [];
  const nearLines = new Set<number>();
  for (const at of credentialLines) {
    for (let line = at - CONTEXT_LINES; line <= at + CONTEXT_LINES; line++) nearLines.add(line);
  }
  const near = (line: number): boolean => nearLines.has(line);
  const inComment = commentCheck(text, lineOf);
  const findings: RawFinding[] = [];
  for (const assignment of extractAssignments(text)) {
    const value = assignment.value.trim();
    if (value.length < 2 || /^\d+$/.test(value) || isPlaceholder(value) || !isContextKey(assignment.key))
      continue;
    // Code, not a literal: `const user = new User();`, `user = getUser()`, `host = cfg.host(…)`.
    if (
      !assignment.quoted &&
      (/^(?:new|await|this|function|require|import)$/.test(value) ||
        /[([{]/.test(value) ||
        /^\s*\(/.test(assignment.after))
    )
      continue;
    if (!near(lineOf(assignment.valueStart)) || inComment(assignment.valueStart)) continue;
    const leading = assignment.value.length - assignment.value.trimStart().length;
    findings.push({
      kind: 'credential_context',
      rule: 'credential_context',
      start: assignment.valueStart + leading,
      end: assignment.valueStart + leading + value.length,
      description: 'connection detail (user, host, URL, database or path) next to a credential',
    });
  }
  return findings;
}

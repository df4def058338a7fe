/**
 * The answer is its claims (ARCHITECTURE invariant 3): `suggested_response.text` is assembled by Cairn from the
 * drafted claims, in order, after every check on them. Whatever the composer wrote in its free `answer` field never
 * leaves the service, so no sentence can go out that is not a confirmed claim (a greeting, an added promise, an
 * injected instruction or link outside the claims is simply not there). Pure.
 *
 * - `steps`: one claim per line, numbered `1.`, `2.`, …;
 * - otherwise: the claims joined by one space, each ended with a full stop when it has no closing punctuation.
 */
import type { AnswerMode } from '../ai/reply-model-contract';

const CLOSED = /[.!?…:;)"'”’»]$/u;

/** One claim's text as it leaves: whitespace collapsed, trimmed. */
export function claimText(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

export function assembleAnswer(claims: ReadonlyArray<{ text: string }>, mode: AnswerMode): string {
  const texts = claims.map((claim) => claimText(claim.text)).filter((text) => text !== '');
  if (mode === 'steps') return texts.map((text, i) => `${i + 1}. ${text}`).join('\n');
  return texts.map((text) => (CLOSED.test(text) ? text : `${text}.`)).join(' ');
}

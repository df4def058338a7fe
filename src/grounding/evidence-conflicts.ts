/**
 * Conflicts the reviewer reports between cited evidence and other evidence it was given (spec §2.6 `conflicts`).
 * Pure. Rule: evidence of lower authority never overrides higher authority.
 * - a cited reference contradicted by evidence of LOWER authority (an approved source against an unverified note)
 *   stands: it carries a `conflicts` entry naming the other evidence, and its claims may leave;
 * - a cited reference contradicted by evidence of the SAME or HIGHER authority (two approved sources disagreeing,
 *   Saturday 9–13 against 9–15) is contradicted: a claim that cites it is not supported, and the reply abstains
 *   (`authoritative_evidence_insufficient`), so Cairn never picks a side between equals.
 */
import type { ReviewConflict } from '../ai/reply-model-contract';

/** What Cairn knows of a reference the reviewer was given. */
export interface ConflictParty {
  memory_item_id: number | null;
  title: string;
  authority_score: number;
  authority_role: string;
}

/** One element of a reference's `conflicts` array. */
export interface ConflictEntry {
  reference_id: string;
  memory_item_id: number | null;
  title: string;
  authority_role: string;
  description: string;
  /** `outranked`: the other evidence has lower authority and does not override this one; `contradicted`: it does. */
  resolution: 'outranked' | 'contradicted';
}

export interface ConflictResolution {
  /** Cited reference ids that evidence of the same or higher authority contradicts. */
  contradicted: Set<string>;
  /** The conflicts entries of each cited reference. */
  entries: Map<string, ConflictEntry[]>;
}

export function resolveConflicts(
  conflicts: readonly ReviewConflict[],
  cited: ReadonlySet<string>,
  partyOf: (referenceId: string) => ConflictParty | undefined,
): ConflictResolution {
  const contradicted = new Set<string>();
  const entries = new Map<string, ConflictEntry[]>();
  const note = (on: string, other: string, description: string, wins: boolean): void => {
    const party = partyOf(other);
    if (!cited.has(on) || party === undefined) return;
    if (!wins) contradicted.add(on);
    const list = entries.get(on) ?? [];
    if (list.some((entry) => entry.reference_id === other)) return;
    list.push({
      reference_id: other,
      memory_item_id: party.memory_item_id,
      title: party.title,
      authority_role: party.authority_role,
      description,
      resolution: wins ? 'outranked' : 'contradicted',
    });
    entries.set(on, list);
  };
  for (const conflict of conflicts) {
    const a = partyOf(conflict.reference_id);
    const b = partyOf(conflict.conflicting_reference_id);
    if (a === undefined || b === undefined) continue;
    const description = conflict.description;
    note(
      conflict.reference_id,
      conflict.conflicting_reference_id,
      description,
      a.authority_score > b.authority_score,
    );
    note(
      conflict.conflicting_reference_id,
      conflict.reference_id,
      description,
      b.authority_score > a.authority_score,
    );
  }
  return { contradicted, entries };
}

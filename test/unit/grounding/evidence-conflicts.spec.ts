import { resolveConflicts, type ConflictParty } from '../../../src/grounding/evidence-conflicts';
import { assembleAnswer } from '../../../src/grounding/answer-text';

const party = (memory_item_id: number, authority_score: number, authority_role: string): ConflictParty => ({
  memory_item_id,
  title: `item ${memory_item_id}`,
  authority_score,
  authority_role,
});
const PARTIES: Record<string, ConflictParty> = {
  hours: party(1, 1, 'authoritative'),
  branch: party(2, 1, 'authoritative'),
  note: party(3, 0.2, 'unverified'),
};
const partyOf = (id: string) => PARTIES[id];

describe('conflicts between cited and other evidence (spec §2.6 conflicts)', () => {
  it('two sources of equal authority contradict each other: the cited one is contradicted', () => {
    const conflicts = [
      { reference_id: 'hours', conflicting_reference_id: 'branch', description: '9–13 vs 9–15' },
    ];
    const resolution = resolveConflicts(conflicts, new Set(['hours']), partyOf);
    expect([...resolution.contradicted]).toEqual(['hours']);
    expect(resolution.entries.get('hours')).toEqual([
      {
        reference_id: 'branch',
        memory_item_id: 2,
        title: 'item 2',
        authority_role: 'authoritative',
        description: '9–13 vs 9–15',
        resolution: 'contradicted',
      },
    ]);
  });

  it('lower authority does not override: the cited source stands and carries the conflict', () => {
    const conflicts = [
      { reference_id: 'hours', conflicting_reference_id: 'note', description: 'note says 8–12' },
    ];
    const resolution = resolveConflicts(conflicts, new Set(['hours']), partyOf);
    expect(resolution.contradicted.size).toBe(0);
    expect(resolution.entries.get('hours')?.[0]).toMatchObject({
      reference_id: 'note',
      resolution: 'outranked',
    });
  });

  it('when both are cited, the lower one is contradicted', () => {
    const conflicts = [{ reference_id: 'hours', conflicting_reference_id: 'note', description: 'x' }];
    const resolution = resolveConflicts(conflicts, new Set(['hours', 'note']), partyOf);
    expect([...resolution.contradicted]).toEqual(['note']);
  });
});

describe('the answer is assembled from the claims', () => {
  it('joins facts into sentences and numbers steps', () => {
    const claims = [{ text: ' Bring the receipt ' }, { text: 'Refunds take 5 business days.' }];
    expect(assembleAnswer(claims, 'facts')).toBe('Bring the receipt. Refunds take 5 business days.');
    expect(assembleAnswer(claims, 'steps')).toBe('1. Bring the receipt\n2. Refunds take 5 business days.');
  });
});

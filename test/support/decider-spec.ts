import type { Decider } from '../../src/commands/shared/decider';
import type { DomainEvent } from '../../src/events/domain-event';

/** Given/when/then for a decider, without I/O: given past events, when a command, then events (or an error). */
export function givenDecider<C, S, E extends DomainEvent>(decider: Decider<C, S, E>) {
  return (given: E[]) => ({
    when: (command: C) => {
      const run = (): E[] => decider.decide(command, given.reduce(decider.evolve, decider.initialState()));
      return {
        then: (expected: E[]) => expect(run()).toEqual(expected),
        thenThrows: (code: string) => {
          let caught: unknown;
          try {
            run();
          } catch (error) {
            caught = error;
          }
          expect(caught).toMatchObject({ code });
        },
      };
    },
  });
}

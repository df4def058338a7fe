import type { DomainEvent } from '../../events/domain-event';

/**
 * A decider (the Decider pattern, as in Emmett): pure functions, no I/O. `decide` returns the events that
 * record the command's effect ([] when it changes nothing) or throws a typed AppError to reject it.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

/** Folds events into state. */
export function fold<S, E extends DomainEvent>(
  decider: Pick<Decider<unknown, S, E>, 'initialState' | 'evolve'>,
  events: E[],
): S {
  return events.reduce(decider.evolve, decider.initialState());
}

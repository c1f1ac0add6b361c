/**
 * What the simulated target remembers between requests of one conversation, so a turn only replays the
 * messages that are new. A conversation is found by a key (what the target read from its first message) and
 * by the messages it has already seen: a stored state serves a request only when its seen messages are a
 * prefix of the request's, compared in the form the replay reads them (`SeenMessage`). Anything else (no
 * state, an edited or shorter history, a branch from an earlier turn) starts a new state, which replays the
 * whole conversation, so answers never depend on what was remembered. The store keeps the `capacity` states
 * used last.
 */

/** A message as the replay reads it: its role, the action of its tool call, and the text it looks at. */
export interface SeenMessage {
  readonly role: string;
  readonly action: string | undefined;
  readonly text: string;
}

export interface Remembered<S> {
  readonly key: string;
  /** The messages of the last request this state was brought up to date with. */
  seen: readonly SeenMessage[];
  readonly state: S;
}

function extendsSeen(seen: readonly SeenMessage[], request: readonly SeenMessage[]): boolean {
  if (seen.length > request.length) return false;
  for (let i = 0; i < seen.length; i++) {
    const a = seen[i]!;
    const b = request[i]!;
    if (a.role !== b.role || a.action !== b.action || a.text !== b.text) return false;
  }
  return true;
}

export class ConversationStore<S> {
  private readonly byKey = new Map<string, Remembered<S>[]>();
  /** Every stored state, least recently used first. */
  private readonly order = new Set<Remembered<S>>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.order.size;
  }

  /** The state under `key` whose seen messages are the longest prefix of `request`, marked as used. */
  find(key: string, request: readonly SeenMessage[]): Remembered<S> | undefined {
    let best: Remembered<S> | undefined;
    for (const entry of this.byKey.get(key) ?? []) {
      if ((best === undefined || entry.seen.length > best.seen.length) && extendsSeen(entry.seen, request)) best = entry;
    }
    if (best !== undefined) {
      this.order.delete(best);
      this.order.add(best);
    }
    return best;
  }

  /** A new state with nothing seen, stored unless the capacity is 0 (the least recently used one goes). */
  add(key: string, state: S): Remembered<S> {
    const entry: Remembered<S> = { key, seen: [], state };
    if (this.capacity <= 0) return entry;
    while (this.order.size >= this.capacity) this.remove(this.order.values().next().value!);
    const list = this.byKey.get(key) ?? [];
    list.push(entry);
    this.byKey.set(key, list);
    this.order.add(entry);
    return entry;
  }

  /** Forgets a state (one left half brought up to date, for instance). */
  remove(entry: Remembered<S>): void {
    if (!this.order.delete(entry)) return;
    const list = (this.byKey.get(entry.key) ?? []).filter((e) => e !== entry);
    if (list.length > 0) this.byKey.set(entry.key, list);
    else this.byKey.delete(entry.key);
  }
}

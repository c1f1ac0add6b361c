import { createHash, type Hash } from 'node:crypto';

import type { ChatRequest } from './chat-model.js';
import { canonical, requestDigest } from './recorded-turn.js';

/**
 * `requestDigest` for the requests of one conversation, at a cost per turn that grows with the new
 * messages only. An agent sends the same messages again with a few appended, so the hash is kept running
 * over the canonical text up to the last message seen, and each message's canonical text is kept with a
 * shape of it (every key and leaf value, in order). A message whose shape still matches is reused as is;
 * the first one that differs (edited, removed, replaced), or any change to the fields besides the
 * messages, restarts from that point or from scratch. A few conversations are followed side by side
 * (a strategy's critique requests interleave with the episode's own), each picked by its fields and first
 * message. The result is always the digest `requestDigest` gives for the same request.
 */
export interface IncrementalDigest {
  digest(request: ChatRequest): string;
  /** How many messages had their canonical text computed so far (the rest were reused). */
  readonly hashedMessages: number;
}

const ARRAY = Symbol('array');
const OBJECT = Symbol('object');

/**
 * Every key and leaf of a value in a fixed walk order: what `canonical` reads. Two values with equal
 * shapes (element by element, compared with `===`) have the same canonical text.
 */
function shapeOf(value: unknown, into: unknown[] = []): unknown[] {
  if (Array.isArray(value)) {
    into.push(ARRAY, value.length);
    for (let i = 0; i < value.length; i++) shapeOf(value[i], into);
  } else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    into.push(OBJECT, keys.length);
    for (const key of keys) {
      into.push(key);
      shapeOf((value as Record<string, unknown>)[key], into);
    }
  } else {
    into.push(value);
  }
  return into;
}

/** Whether `value` walks to exactly `shape` from position `at`; the position after it, or -1. */
function matchShape(value: unknown, shape: readonly unknown[], at: number): number {
  if (Array.isArray(value)) {
    if (shape[at] !== ARRAY || shape[at + 1] !== value.length) return -1;
    let next = at + 2;
    for (let i = 0; i < value.length && next >= 0; i++) next = matchShape(value[i], shape, next);
    return next;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (shape[at] !== OBJECT || shape[at + 1] !== keys.length) return -1;
    let next = at + 2;
    for (let i = 0; i < keys.length && next >= 0; i++) {
      const key = keys[i]!;
      if (shape[next] !== key) return -1;
      next = matchShape((value as Record<string, unknown>)[key], shape, next + 1);
    }
    return next;
  }
  return shape[at] === value ? at + 1 : -1;
}

function sameShape(value: unknown, shape: readonly unknown[]): boolean {
  return matchShape(value, shape, 0) === shape.length;
}

/** A message as hashed: its shape when it was hashed and its canonical text. */
interface HashedMessage {
  shape: unknown[];
  text: string;
}

/** The fields besides the messages, split around where `"messages":[...]` sits in the canonical text. */
interface Frame {
  /** The request with signal and messages left out, as a shape. */
  shape: unknown[];
  /** Canonical text up to and including `"messages":[`. */
  head: string;
  /** Canonical text from the closing `]` of the messages on. */
  tail: string;
}

function restOf(request: ChatRequest): Record<string, unknown> {
  const { signal: _signal, messages: _messages, ...rest } = request;
  return rest;
}

function frameOf(rest: Record<string, unknown>): Frame {
  const entries = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, `${JSON.stringify(k)}:${canonical(v)}`] as const);
  const before = entries.filter(([k]) => k < 'messages').sort(([a], [b]) => (a < b ? -1 : 1)).map(([, text]) => text);
  const after = entries.filter(([k]) => k > 'messages').sort(([a], [b]) => (a < b ? -1 : 1)).map(([, text]) => text);
  return {
    shape: shapeOf(rest),
    head: `{${before.map((text) => `${text},`).join('')}"messages":[`,
    tail: `]${after.map((text) => `,${text}`).join('')}}`,
  };
}

/** One conversation being followed: its frame, its hashed messages and the hash over them. */
interface Lane {
  frame: Frame;
  hashed: HashedMessage[];
  /** The hash over `frame.head` and the texts of `hashed`, joined by commas. */
  running: Hash;
}

/** How many conversations are followed at once (an episode's own, a strategy's critique, ...). */
const LANES = 4;

function newLane(rest: Record<string, unknown>): Lane {
  const frame = frameOf(rest);
  return { frame, hashed: [], running: createHash('sha256').update(frame.head) };
}

/** Keeps the first `upTo` hashed messages of a lane and starts its running hash again over them. */
function truncate(lane: Lane, upTo: number): void {
  lane.hashed = lane.hashed.slice(0, upTo);
  lane.running = createHash('sha256').update(lane.frame.head);
  lane.hashed.forEach((message, i) => lane.running.update(i === 0 ? message.text : `,${message.text}`));
}

export function incrementalDigest(): IncrementalDigest {
  /** Most recently used first. */
  const lanes: Lane[] = [];
  let hashedMessages = 0;

  /** The lane whose frame and first message the request shares, moved to the front; a new one if none. */
  const laneFor = (rest: Record<string, unknown>, messages: readonly unknown[]): Lane => {
    const at = lanes.findIndex((lane) => sameShape(rest, lane.frame.shape) && (lane.hashed.length === 0 || messages.length === 0 || sameShape(messages[0], lane.hashed[0]!.shape)));
    if (at < 0) {
      lanes.unshift(newLane(rest));
      lanes.length = Math.min(lanes.length, LANES);
      return lanes[0]!;
    }
    const [lane] = lanes.splice(at, 1);
    lanes.unshift(lane!);
    return lane!;
  };

  return {
    get hashedMessages() {
      return hashedMessages;
    },
    digest(request: ChatRequest): string {
      const messages: unknown = request.messages;
      // Anything but a list of messages is left to the full computation.
      if (!Array.isArray(messages)) return requestDigest(request);
      const lane = laneFor(restOf(request), messages);
      // The first message that is not the one hashed at its position: everything from it on is redone.
      let same = 0;
      while (same < lane.hashed.length && same < messages.length && sameShape(messages[same], lane.hashed[same]!.shape)) same++;
      if (same < lane.hashed.length) truncate(lane, same);
      for (let i = lane.hashed.length; i < messages.length; i++) {
        const message: unknown = messages[i];
        // `canonical` gives no text for undefined; joined into the list it reads as nothing.
        const text = (canonical(message) as string | undefined) ?? '';
        lane.running.update(i === 0 ? text : `,${text}`);
        lane.hashed.push({ shape: shapeOf(message), text });
        hashedMessages++;
      }
      return lane.running.copy().update(lane.frame.tail).digest('hex');
    },
  };
}

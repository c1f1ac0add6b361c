import { describe, expect, it } from 'vitest';

import { ConversationStore, type SeenMessage } from './conversation-store.js';

const msg = (role: string, text: string, action?: string): SeenMessage => ({ role, text, action });
const a = msg('user', 'task');
const b = msg('assistant', '', 'go to desk 1');
const c = msg('tool', 'You arrive at desk 1.');
const d = msg('user', 'a hint');

describe('ConversationStore', () => {
  it('finds the state whose seen messages are the longest prefix of the request, under the same key only', () => {
    const store = new ConversationStore<string>(8);
    const short = store.add('k', 'short');
    short.seen = [a];
    const long = store.add('k', 'long');
    long.seen = [a, b, c];
    expect(store.find('k', [a, b, c, d])?.state).toBe('long');
    expect(store.find('k', [a, b])?.state).toBe('short');
    expect(store.find('other', [a, b, c, d])).toBeUndefined();
    // A history that differs inside the seen part (another action) is not an extension.
    expect(store.find('k', [a, msg('assistant', '', 'go to bed 1'), c])?.state).toBe('short');
    expect(store.find('k', [msg('user', 'another task')])).toBeUndefined();
  });

  it('keeps the states used last and none with capacity 0', () => {
    const store = new ConversationStore<number>(2);
    const one = store.add('k1', 1);
    store.add('k2', 2);
    store.find('k1', []); // used: now the newest
    store.add('k3', 3);
    expect(store.size).toBe(2);
    expect(store.find('k2', [])).toBeUndefined();
    expect(store.find('k1', [])).toBe(one);
    store.remove(one);
    expect(store.find('k1', [])).toBeUndefined();

    const none = new ConversationStore<number>(0);
    none.add('k', 1);
    expect(none.size).toBe(0);
    expect(none.find('k', [])).toBeUndefined();
  });
});

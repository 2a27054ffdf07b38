import { describe, expect, it } from 'vitest';

import { MessageStore, type WireMessage } from '../../../packages/sdkpp/src/chat/MessageStore.js';

const now = Date.parse('2026-11-23T09:00:00Z');
const message = (id: string, channel = '7', content = `m${id}`): WireMessage => ({
  id,
  channel_id: channel,
  content,
  author: { id: '7' },
  timestamp: new Date(now).toISOString(),
});
const ids = (list: WireMessage[] | undefined): string[] | undefined => list?.map((m) => m.id);

describe('MessageStore', () => {
  it('answers from a fetched conversation and asks again for more than it holds', () => {
    const store = new MessageStore();
    expect(store.cached('7', 1, 0)).toBeUndefined();
    store.fill('7', [message('30'), message('20')], 2);
    expect(ids(store.cached('7', 2, 0))).toEqual(['20', '30']);
    expect(ids(store.cached('7', 1, 0))).toEqual(['30']);
    expect(store.cached('7', 3, 0)).toBeUndefined();
    // A short reply means the history is complete: any larger limit is answered locally.
    store.fill('7', [message('30'), message('20'), message('10')], 5);
    expect(ids(store.cached('7', 200, 0))).toEqual(['10', '20', '30']);
    // Ids compare as numbers, not strings.
    store.put(message('100'), '7');
    expect(ids(store.cached('7', 2, 0))).toEqual(['30', '100']);
    // Messages older than the window do not count.
    expect(store.cached('7', 1, now + 1)).toEqual([]);
  });

  it('keeps messages that arrived by event while no conversation was held or a request was in flight', () => {
    const store = new MessageStore();
    store.put(message('40'), '7'); // MESSAGE_CREATE before the first fetch
    store.put(message('5', '8'), '8'); // another conversation
    store.fill('7', [message('30'), message('20')], 2); // the reply was made before 40 existed
    expect(ids(store.cached('7', 3, 0))).toEqual(['20', '30', '40']);
    expect(store.cached('7', 4, 0)).toBeUndefined();
  });

  it('does not bring back a message deleted while a request was in flight', () => {
    const store = new MessageStore();
    store.put(message('20'), '7');
    store.delete('20');
    store.fill('7', [message('20'), message('10')], 50);
    expect(ids(store.cached('7', 50, 0))).toEqual(['10']);
    expect(store.get('20')).toBeUndefined();
    store.clear();
    expect(store.cached('7', 1, 0)).toBeUndefined();
  });

  it('merges partial updates and forgets completeness for a new session', () => {
    const store = new MessageStore();
    store.fill('7', [message('10', '7', 'before')], 50);
    store.put({ id: '10', channel_id: '7', moderation_metadata: { verdict: 'ok' } }, '7');
    expect(store.get('10')).toMatchObject({ content: 'before', moderation_metadata: { verdict: 'ok' } });
    store.invalidateConversations();
    expect(store.cached('7', 1, 0)).toBeUndefined();
    expect(store.get('10')?.content).toBe('before');
  });
});

import { describe, expect, it } from 'vitest';

import {
  AdditionalContentType,
  DisclosureType,
  additionalContentOf,
  disclosureTypeOf,
} from '../../../packages/sdkpp/src/chat/additionalContent.js';
import { MessageStore, type WireMessage } from '../../../packages/sdkpp/src/chat/MessageStore.js';

const base: WireMessage = { id: '1', channel_id: '7', content: 'x', timestamp: '2026-11-23T09:00:00Z' };

describe('additionalContentOf', () => {
  it('is null for text, names one kind with its count and title, and Other for several', () => {
    expect(additionalContentOf(base)).toBeNull();
    expect(additionalContentOf({ ...base, attachments: [], embeds: [], sticker_items: [] })).toBeNull();
    expect(additionalContentOf({ ...base, embeds: [{}, {}, {}] })).toEqual({
      type: AdditionalContentType.Embed,
      title: null,
      count: 3,
    });
    expect(additionalContentOf({ ...base, thread: { id: '9', name: 'Raid' } })).toEqual({
      type: AdditionalContentType.Thread,
      title: 'Raid',
      count: 1,
    });
    // A poll whose question is missing or malformed is still a poll, with an empty title.
    expect(additionalContentOf({ ...base, poll: { question: 5 } })).toEqual({
      type: AdditionalContentType.Poll,
      title: '',
      count: 1,
    });
    expect(additionalContentOf({ ...base, attachments: [{}], sticker_items: [{}, {}] })).toEqual({
      type: AdditionalContentType.Other,
      title: null,
      count: 3,
    });
    // A voice message wins over its own attachment; counts stop at 255 (the C++ uint8_t).
    expect(additionalContentOf({ ...base, flags: 1 << 13, attachments: [{}] })?.type).toBe(
      AdditionalContentType.VoiceMessage,
    );
    expect(
      additionalContentOf({ ...base, attachments: Array.from({ length: 300 }, () => ({})) })?.count,
    ).toBe(255);
    // Not lists: nothing.
    expect(additionalContentOf({ ...base, attachments: 'a' as unknown as unknown[] })).toBeNull();
  });

  it('knows the one disclosure type and ignores others', () => {
    expect(disclosureTypeOf({ ...base, disclosure_type: 3 })).toBe(
      DisclosureType.MessageDataVisibleOnDiscord,
    );
    expect(disclosureTypeOf({ ...base, disclosure_type: 7 })).toBeNull();
    expect(disclosureTypeOf(base)).toBeNull();
  });

  it('keeps disclosures out of cached conversations', () => {
    const store = new MessageStore();
    store.fill('7', [base], 10);
    store.put({ ...base, id: '2', disclosure_type: 3 }, '7');
    store.put({ ...base, id: '3' }, '7');
    expect(store.cached('7', 10, 0)?.map((m) => m.id)).toEqual(['1', '3']);
    expect(store.get('2')?.disclosure_type).toBe(3);
  });
});

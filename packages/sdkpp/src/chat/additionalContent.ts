import type { WireMessage } from './MessageStore.js';

/** The kind of non-text content in a message (C++ `AdditionalContentType`). */
export enum AdditionalContentType {
  /** Several kinds at once, or a kind the SDK does not name. */
  Other = 0,
  /** Files (images, videos, …). */
  Attachment = 1,
  /** A poll; the title is its question. */
  Poll = 2,
  /** A voice message. */
  VoiceMessage = 3,
  /** The message started a thread; the title is the thread's name. */
  Thread = 4,
  /** Embeds (link previews, bot cards). */
  Embed = 5,
  /** Stickers. */
  Sticker = 6,
}

/** Auto-generated messages in which the platform explains an integration behaviour (C++ `DisclosureTypes`). */
export enum DisclosureType {
  /**
   * Sent the first time a user sends, in a game, a message that can be viewed on Discord, so they know their
   * content leaves the game.
   */
  MessageDataVisibleOnDiscord = 3,
}

/**
 * What a message holds besides text, which a game usually cannot render (C++ `AdditionalContent`): show it
 * as "2 additional images" or a poll's title, and offer `openMessageInDiscord`.
 */
export interface AdditionalContent {
  /** The kind of content. */
  type: AdditionalContentType;
  /** For a poll, its question; for a thread, its name; otherwise null. */
  title: string | null;
  /** How many pieces (0–255): attachments, embeds, stickers; 1 for a poll, thread or voice message. */
  count: number;
}

/** Message flag IS_VOICE_MESSAGE. */
const IS_VOICE_MESSAGE = 1 << 13;

/** The largest count (the C++ field is a `uint8_t`). */
const MAX_COUNT = 255;

const listLength = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

const textAt = (value: unknown, ...path: string[]): string | null => {
  let at: unknown = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return null;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' && at !== '' ? at : null;
};

/**
 * Summarises a message's non-text content as the C++ SDK's `AdditionalContent`: a voice message is one
 * VoiceMessage; otherwise one kind gives that kind with its count (a poll's question or a thread's name as the
 * title), several kinds give Other with the count of every piece. Null for a text-only message.
 */
export function additionalContentOf(message: WireMessage): AdditionalContent | null {
  const attachments = listLength(message.attachments);
  if (((message.flags ?? 0) & IS_VOICE_MESSAGE) !== 0) {
    return { type: AdditionalContentType.VoiceMessage, title: null, count: Math.max(1, attachments) };
  }
  const pollTitle = message.poll ? (textAt(message.poll, 'question', 'text') ?? '') : null;
  const threadTitle = message.thread ? (textAt(message.thread, 'name') ?? '') : null;
  const kinds: AdditionalContent[] = [];
  if (attachments > 0)
    kinds.push({ type: AdditionalContentType.Attachment, title: null, count: attachments });
  const embeds = listLength(message.embeds);
  if (embeds > 0) kinds.push({ type: AdditionalContentType.Embed, title: null, count: embeds });
  const stickers = listLength(message.sticker_items);
  if (stickers > 0) kinds.push({ type: AdditionalContentType.Sticker, title: null, count: stickers });
  if (pollTitle !== null) kinds.push({ type: AdditionalContentType.Poll, title: pollTitle, count: 1 });
  if (threadTitle !== null) kinds.push({ type: AdditionalContentType.Thread, title: threadTitle, count: 1 });
  const only = kinds.length === 1 ? kinds[0] : undefined;
  if (only) return { ...only, count: Math.min(only.count, MAX_COUNT) };
  if (kinds.length === 0) return null;
  const total = kinds.reduce((sum, k) => sum + k.count, 0);
  return { type: AdditionalContentType.Other, title: null, count: Math.min(total, MAX_COUNT) };
}

/** The message's disclosure type, or null for an ordinary message (or a type this SDK does not know). */
export function disclosureTypeOf(message: WireMessage): DisclosureType | null {
  return message.disclosure_type === DisclosureType.MessageDataVisibleOnDiscord
    ? DisclosureType.MessageDataVisibleOnDiscord
    : null;
}

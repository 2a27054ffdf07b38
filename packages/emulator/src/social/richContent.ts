import type {
  AttachmentRecord,
  ChannelMessageRecord,
  RichAttachmentRecord,
  RichContentRecord,
} from '../store/types.js';
import type { ChatMessageExtras } from '../types.js';

export type { ChatMessageExtras } from '../types.js';

/** Message flag of voice messages (the platform's IS_VOICE_MESSAGE). */
export const IS_VOICE_MESSAGE_FLAG = 1 << 13;

/** Channel type of a public thread, as a message's `thread` carries it. */
const PUBLIC_THREAD_TYPE = 11;

/** True when `extras` holds at least one piece of non-text content. */
export function hasExtras(extras: ChatMessageExtras | undefined): boolean {
  if (!extras) return false;
  return (
    (extras.attachments?.length ?? 0) > 0 ||
    (extras.embeds?.length ?? 0) > 0 ||
    extras.poll !== undefined ||
    (extras.stickers?.length ?? 0) > 0 ||
    extras.voiceMessage === true ||
    extras.thread !== undefined
  );
}

/** The record of `extras`, each piece numbered by `nextId`; undefined when there is none. */
export function richFromExtras(
  extras: ChatMessageExtras | undefined,
  nextId: () => string,
): RichContentRecord | undefined {
  if (!extras || !hasExtras(extras)) return undefined;
  const attachments: RichAttachmentRecord[] = (extras.attachments ?? []).map((filename) => ({
    id: nextId(),
    filename,
    size: 0,
    contentType: null,
    url: null,
  }));
  if (extras.voiceMessage === true) {
    attachments.push({
      id: nextId(),
      filename: 'voice-message.ogg',
      size: 0,
      contentType: 'audio/ogg',
      url: null,
    });
  }
  return {
    attachments,
    embeds: (extras.embeds ?? []).map((title) => ({ type: 'rich', title })),
    pollQuestion: extras.poll ?? null,
    stickers: (extras.stickers ?? []).map((name) => ({ id: nextId(), name })),
    voiceMessage: extras.voiceMessage === true,
    thread: extras.thread === undefined ? null : { id: nextId(), name: extras.thread },
  };
}

/** The question of a stored poll (`{ question: { text } }`), or null. */
function pollQuestionOf(poll: unknown): string | null {
  if (typeof poll !== 'object' || poll === null) return null;
  const question = (poll as { question?: unknown }).question;
  const text =
    typeof question === 'object' && question !== null ? (question as { text?: unknown }).text : null;
  return typeof text === 'string' && text !== '' ? text : null;
}

/**
 * The non-text content of a guild channel message, as the lobby relay passes it on; undefined for a text-only
 * message. `attachmentUrl` gives where each stored attachment is served.
 */
export function richFromChannelMessage(
  record: ChannelMessageRecord,
  attachmentUrl: (attachment: AttachmentRecord) => string,
): RichContentRecord | undefined {
  const rich: RichContentRecord = {
    attachments: (record.attachments ?? []).map((a) => ({
      id: a.id,
      filename: a.filename,
      size: a.size,
      contentType: a.contentType,
      url: attachmentUrl(a),
    })),
    embeds: structuredClone(record.embeds ?? []),
    pollQuestion: record.poll === undefined ? null : (pollQuestionOf(record.poll) ?? 'Poll'),
    stickers: structuredClone(record.stickers ?? []),
    voiceMessage: ((record.flags ?? 0) & IS_VOICE_MESSAGE_FLAG) !== 0,
    thread: record.thread ? { ...record.thread } : null,
  };
  const empty =
    rich.attachments.length === 0 &&
    rich.embeds.length === 0 &&
    rich.pollQuestion === null &&
    rich.stickers.length === 0 &&
    !rich.voiceMessage &&
    rich.thread === null;
  return empty ? undefined : rich;
}

/**
 * The fields the platform sends for a message's non-text content: `attachments`, `embeds`, `poll`,
 * `sticker_items`, `thread`, and the flag bits they add (IS_VOICE_MESSAGE). Text-only messages (every game
 * message) get none of them, which readers take as empty lists.
 */
export function wireRichContent(rich: RichContentRecord | undefined): {
  fields: Record<string, unknown>;
  flags: number;
} {
  if (!rich) return { fields: {}, flags: 0 };
  return {
    fields: {
      attachments: rich.attachments.map((a) => ({
        id: a.id,
        filename: a.filename,
        size: a.size,
        ...(a.contentType === null ? {} : { content_type: a.contentType }),
        ...(a.url === null ? {} : { url: a.url, proxy_url: a.url }),
      })),
      embeds: structuredClone(rich.embeds),
      sticker_items: rich.stickers.map((s) => ({ id: s.id, name: s.name, format_type: 1 })),
      ...(rich.pollQuestion === null
        ? {}
        : {
            poll: {
              question: { text: rich.pollQuestion },
              answers: [],
              expiry: null,
              allow_multiselect: false,
              layout_type: 1,
            },
          }),
      ...(rich.thread === null
        ? {}
        : { thread: { id: rich.thread.id, name: rich.thread.name, type: PUBLIC_THREAD_TYPE } }),
    },
    flags: rich.voiceMessage ? IS_VOICE_MESSAGE_FLAG : 0,
  };
}

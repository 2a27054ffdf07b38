import type { EmulatorContext } from '../context.js';
import type { DirectMessageRecord, UserRecord } from '../store/types.js';

/** A direct-message notification of the emulated desktop client: shown, or held back for a game showing chat. */
export interface LocalClientNotification {
  /** The message it is about. */
  messageId: string;
  /** The conversation, as the desktop client's user sees it (the author's id). */
  channelId: string;
  authorId: string;
  /** The author's name, as the notification's title shows it. */
  title: string;
  /** The text shown (the message's content, or a word for its non-text content). */
  body: string;
  /** False when a game on this machine said it shows chat (SET_SHOWING_CHAT), so the desktop client kept quiet. */
  shown: boolean;
  /** Unix ms. */
  at: number;
}

/**
 * The NOTIFICATION_CREATE payload of a direct message to `user` (wire-protocols §3.5: `channel_id`, `message`,
 * `icon_url`, `title`, `body`), and its record.
 */
export function dmNotification(
  ctx: EmulatorContext,
  user: UserRecord,
  record: DirectMessageRecord,
  shown: boolean,
): { data: Record<string, unknown>; entry: LocalClientNotification } {
  const author = ctx.store.user(record.authorId);
  const title = author?.globalName ?? author?.username ?? record.authorId;
  const body = record.content !== '' ? record.content : record.rich ? 'Sent an attachment.' : '';
  return {
    data: {
      channel_id: record.authorId,
      message: ctx.messages.wire(record, user.id),
      icon_url: null,
      title,
      body,
    },
    entry: {
      messageId: record.id,
      channelId: record.authorId,
      authorId: record.authorId,
      title,
      body,
      shown,
      at: ctx.store.now(),
    },
  };
}

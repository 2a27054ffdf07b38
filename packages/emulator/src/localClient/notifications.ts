import type { EmulatorContext } from '../context.js';
import type { DirectMessageRecord, UserRecord } from '../store/types.js';
import type { LocalClientNotification } from '../types.js';

export type { LocalClientNotification } from '../types.js';

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

import { wireUser } from '../accounts/userObject.js';
import type { EmulatorStore } from '../store/Store.js';
import { IS_COMPONENTS_V2 } from '../bodies/componentBodies.js';
import type { AttachmentRecord, ChannelMessageRecord } from '../store/types.js';
import { exposeAttachments } from './componentMedia.js';
import { attachmentUrl } from '../social/AttachmentFiles.js';

/** Attachment flag IS_SPOILER. */
export const ATTACHMENT_IS_SPOILER = 1 << 3;

/** Message type DEFAULT (0) and REPLY (19). */
const MESSAGE_TYPE = { DEFAULT: 0, REPLY: 19 } as const;

export { attachmentUrl } from '../social/AttachmentFiles.js';

/** An attachment as the API returns it, with IS_SPOILER when spoilered. */
export function wireAttachment(
  http: string,
  channelId: string,
  a: AttachmentRecord,
): Record<string, unknown> {
  const url = attachmentUrl(http, channelId, a);
  return {
    id: a.id,
    filename: a.filename,
    ...(a.description === null ? {} : { description: a.description }),
    content_type: a.contentType ?? undefined,
    size: a.size,
    url,
    proxy_url: url,
    flags: a.spoiler ? ATTACHMENT_IS_SPOILER : 0,
  };
}

function interactionUser(store: EmulatorStore, userId: string): unknown {
  const user = store.user(userId);
  return user ? wireUser(user) : { id: userId };
}

/** How a message is shown to one reader. */
export interface MessageView {
  /** The emulator's HTTP origin, for attachment URLs. */
  http: string;
  /** The channel's guild. */
  guildId: string;
  /**
   * Whether the reader may read the content (a bot needs MESSAGE_CONTENT unless it wrote the message or is
   * mentioned); without it `content`, `embeds`, `attachments`, `components` and snapshots come empty.
   */
  content: boolean;
  /** Extra fields (the author's `member` in MESSAGE_CREATE, `referenced_message`, …). */
  extra?: Record<string, unknown>;
}

/** A channel message as the API and the gateway send it. */
export function wireMessage(
  record: ChannelMessageRecord,
  store: EmulatorStore,
  view: MessageView,
): Record<string, unknown> {
  const author = store.user(record.authorId);
  const show = view.content;
  // With IS_COMPONENTS_V2, attachments show only through a Thumbnail, Media Gallery or File component.
  const v2 = ((record.flags ?? 0) & IS_COMPONENTS_V2) !== 0;
  const exposed = v2
    ? exposeAttachments(record.components ?? [], record.attachments ?? [], (a) =>
        attachmentUrl(view.http, record.channelId, a),
      )
    : null;
  const attachments = (list: AttachmentRecord[] | undefined): unknown[] =>
    show ? (list ?? []).map((a) => wireAttachment(view.http, record.channelId, a)) : [];
  const reference = record.reference ?? null;
  return {
    id: record.id,
    type: reference?.type === 0 ? MESSAGE_TYPE.REPLY : MESSAGE_TYPE.DEFAULT,
    channel_id: record.channelId,
    guild_id: view.guildId,
    author: author ? wireUser(author) : { id: record.authorId, username: 'Deleted User', discriminator: '0' },
    content: show ? record.content : '',
    timestamp: new Date(record.createdAt).toISOString(),
    edited_timestamp: typeof record.editedAt === 'number' ? new Date(record.editedAt).toISOString() : null,
    tts: false,
    mention_everyone: false,
    mentions: (record.mentions ?? []).flatMap((id) => {
      const user = store.user(id);
      return user ? [wireUser(user)] : [];
    }),
    mention_roles: [...(record.mentionRoles ?? [])],
    attachments: attachments(
      exposed ? (record.attachments ?? []).filter((a) => exposed.shown.has(a.id)) : record.attachments,
    ),
    embeds: show ? structuredClone(record.embeds ?? []) : [],
    components: show ? (exposed?.components ?? structuredClone(record.components ?? [])) : [],
    pinned: typeof record.pinnedAt === 'number',
    flags: record.flags ?? 0,
    ...(record.nonce === undefined || record.nonce === null ? {} : { nonce: record.nonce }),
    ...(reference
      ? {
          message_reference: {
            type: reference.type,
            message_id: reference.messageId,
            channel_id: reference.channelId,
            guild_id: reference.guildId,
          },
        }
      : {}),
    ...(record.snapshot
      ? {
          // The snapshot has no guild field: the reference carries it (the document's rule).
          message_snapshots: [
            {
              message: {
                type: MESSAGE_TYPE.DEFAULT,
                content: show ? record.snapshot.content : '',
                embeds: show ? structuredClone(record.snapshot.embeds) : [],
                attachments: attachments(record.snapshot.attachments),
                timestamp: new Date(record.snapshot.createdAt).toISOString(),
                edited_timestamp:
                  record.snapshot.editedAt === null ? null : new Date(record.snapshot.editedAt).toISOString(),
                flags: record.snapshot.flags,
                mentions: [],
                mention_roles: [],
              },
            },
          ],
        }
      : {}),
    ...(record.interaction
      ? {
          interaction_metadata: {
            id: record.interaction.id,
            type: record.interaction.type,
            user: interactionUser(store, record.interaction.userId),
            authorizing_integration_owners: { ...record.interaction.owners },
            ...(record.interaction.originalResponseMessageId === null
              ? {}
              : { original_response_message_id: record.interaction.originalResponseMessageId }),
          },
          // Deprecated in favour of interaction_metadata, still sent (the document's rule).
          interaction: {
            id: record.interaction.id,
            type: record.interaction.type,
            name: record.interaction.name,
            user: interactionUser(store, record.interaction.userId),
          },
          application_id: store.state.application.id,
        }
      : {}),
    ...(record.poll === undefined ? {} : { poll: structuredClone(record.poll) }),
    ...view.extra,
  };
}

import type { EmulatorContext } from '../context.js';
import { mentionsIn } from '../social/ChannelMessages.js';
import { ChannelKind } from '../social/Guilds.js';
import { compareIds } from '../snowflake.js';
import { Permission, hasAll, permissionNames } from '../platform/permissions.js';
import type {
  AttachmentRecord,
  ChannelMessageRecord,
  GuildChannelRecord,
  MessageReferenceRecord,
  MessageSnapshotRecord,
} from '../store/types.js';
import { botMessageView, botReadsContent, channelForBot } from './botAccess.js';
import { ApiError, missingPermissions, unknown } from '../platform/errors.js';
import { MAX_MESSAGE_BODY_BYTES, readMessageRequest } from './messageRequest.js';
import { checkMessageBody, type MessageBody } from '../bodies/messageBodies.js';
import { queryInteger } from '../bodies/fieldErrors.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** 400 50006: a message needs content, an embed, a component, an attachment or a forward. */
function emptyMessage(): ApiError {
  return new ApiError(400, 50006, 'Cannot send an empty message');
}

/** The message list's page size bounds. */
const MAX_PAGE = 100;

/**
 * The bot's message routes of guild text channels: create (JSON or multipart with files, replies, forwards,
 * `enforce_nonce`), list and get (content follows the MESSAGE_CONTENT rule), edit (content, embeds,
 * components, attachments kept or changed by id), delete. Pins have their own file.
 */
export function channelMessageRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const botId = store.state.application.id;
  const messages = guilds.messages;
  const skuAvailable = (id: string): boolean => ctx.premium.available(id);

  const view = (record: ChannelMessageRecord, channel: GuildChannelRecord): Record<string, unknown> =>
    botMessageView(ctx, record, channel);

  const textChannel = (req: RouteRequest, needed: bigint): GuildChannelRecord => {
    requireBot(ctx, req);
    const channel = channelForBot(ctx, req.params.channel_id ?? '', needed);
    if (channel.type !== ChannelKind.TEXT)
      throw new ApiError(400, 50008, 'Cannot send messages in a non-text channel');
    return channel;
  };

  const storeUploads = (body: MessageBody, keep: AttachmentRecord[]): AttachmentRecord[] => {
    const kept = new Map(keep.map((a) => [a.id, a]));
    const result: AttachmentRecord[] = [];
    const specs = body.attachments ?? [];
    for (const spec of specs) {
      const file = body.files.get(spec.id);
      if (file) {
        const filename = spec.filename ?? file.filename;
        const record: AttachmentRecord = {
          id: store.nextId(),
          filename,
          size: file.bytes.length,
          contentType: file.contentType,
          description: spec.description ?? null,
          // The legacy SPOILER_ prefix still marks a spoiler; is_spoiler does it without renaming.
          spoiler: spec.isSpoiler ?? filename.startsWith('SPOILER_'),
        };
        messages.files.put(record.id, { bytes: file.bytes, contentType: file.contentType });
        result.push(record);
        continue;
      }
      const existing = kept.get(spec.id);
      if (!existing) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: {
            attachments: {
              _errors: [{ code: 'ATTACHMENT_NOT_FOUND', message: `Unknown attachment ${spec.id}` }],
            },
          },
        });
      }
      // The document: an edit may change `description` and `is_spoiler` of an existing attachment.
      result.push({
        ...existing,
        ...(spec.description === undefined ? {} : { description: spec.description }),
        ...(spec.isSpoiler === undefined ? {} : { spoiler: spec.isSpoiler }),
      });
    }
    return result;
  };

  const forwardOf = (
    body: MessageBody,
  ): { snapshot: MessageSnapshotRecord; reference: MessageReferenceRecord } | null => {
    const ref = body.reference;
    if (!ref || ref.type !== 1) return null;
    if (body.content || body.embeds?.length || body.components?.length || body.attachments?.length) {
      throw new ApiError(400, 50035, 'Invalid Form Body', {
        errors: {
          message_reference: {
            _errors: [
              { code: 'MESSAGE_FORWARD_WITH_CONTENT', message: 'A forward carries nothing of its own.' },
            ],
          },
        },
      });
    }
    const source = guilds.channel(ref.channelId ?? '');
    // A channel whose history the bot cannot read answers as if the message were not there: 160014 for an id
    // that exists would tell the bot which ids exist in a channel hidden from it.
    const history =
      source !== undefined &&
      hasAll(guilds.permissions(botId, source.id), Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY);
    const original = source && history ? messages.get(source.id, ref.messageId) : undefined;
    if (!source || !original) throw unknown('Message');
    // The document's 160014: the app must be able to read the forwarded message's content.
    if (!botReadsContent(ctx, original)) {
      ctx.log.line('guilds', `the bot may not forward message ${original.id}: it cannot read its content`);
      throw new ApiError(403, 160014, 'You cannot forward a message whose content you cannot read.');
    }
    return {
      snapshot: {
        content: original.content,
        embeds: structuredClone(original.embeds ?? []),
        attachments: structuredClone(original.attachments ?? []),
        flags: original.flags ?? 0,
        createdAt: original.createdAt,
        editedAt: original.editedAt ?? null,
      },
      // The snapshot has no guild: the reference carries the source's, which may be another guild than this.
      reference: { type: 1, messageId: original.id, channelId: source.id, guildId: source.guildId },
    };
  };

  const create = async (req: RouteRequest) => {
    const channel = textChannel(req, Permission.SEND_MESSAGES);
    const { json, files } = await readMessageRequest(req);
    const body = checkMessageBody(json, files, { edit: false, skuAvailable });
    const held = guilds.permissions(botId, channel.id);
    const needs =
      (body.embeds?.length ? Permission.EMBED_LINKS : 0n) |
      (files.size > 0 ? Permission.ATTACH_FILES : 0n) |
      (body.reference ? Permission.READ_MESSAGE_HISTORY : 0n);
    if (!hasAll(held, needs)) throw missingPermissions(permissionNames(needs & ~held));
    if (body.enforceNonce && body.nonce !== undefined) {
      const earlier = messages.byNonce(channel.id, botId, body.nonce);
      if (earlier) {
        ctx.log.line('guilds', `enforce_nonce: message ${earlier.id} returned again for its nonce`);
        return jsonReply(200, view(earlier, channel));
      }
    }
    const forward = forwardOf(body);
    const snapshot = forward?.snapshot ?? null;
    let reference: ChannelMessageRecord['reference'] = forward?.reference ?? null;
    if (body.reference?.type === 0) {
      // A reply points into its own channel. Any other channel, readable or hidden, here or in another guild,
      // gets the answer of a missing message, so the answer cannot tell whether an id exists there.
      const inThisChannel = (body.reference.channelId ?? channel.id) === channel.id;
      const target = inThisChannel ? messages.get(channel.id, body.reference.messageId) : undefined;
      if (target) {
        reference = { type: 0, messageId: target.id, channelId: channel.id, guildId: channel.guildId };
      } else if (body.reference.failIfNotExists) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: {
            message_reference: {
              _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', message: 'Unknown message' }],
            },
          },
        });
      }
    }
    const attachments = storeUploads(body, []);
    const content = body.content ?? '';
    if (
      !content &&
      !body.embeds?.length &&
      !body.components?.length &&
      attachments.length === 0 &&
      !snapshot
    ) {
      throw emptyMessage();
    }
    const mentions = mentionsIn(content);
    const record = messages.create(channel, {
      authorId: botId,
      content,
      fromLobbyId: null,
      editedAt: null,
      embeds: body.embeds ?? [],
      attachments,
      components: body.components ?? [],
      flags: body.flags ?? 0,
      nonce: body.nonce ?? null,
      pinnedAt: null,
      reference,
      snapshot,
      mentions: mentions.users,
      mentionRoles: mentions.roles,
    });
    return jsonReply(200, view(record, channel));
  };

  const message = (req: RouteRequest, channel: GuildChannelRecord): ChannelMessageRecord => {
    const record = messages.get(channel.id, req.params.message_id ?? '');
    if (!record) throw unknown('Message');
    return record;
  };

  return [
    apiRoute('POST', '/channels/:channel_id/messages', create, { maxBodyBytes: MAX_MESSAGE_BODY_BYTES }),
    apiRoute(
      'PATCH',
      '/channels/:channel_id/messages/:message_id',
      async (req) => {
        const channel = textChannel(req, 0n);
        const record = message(req, channel);
        if (record.authorId !== botId)
          throw new ApiError(403, 50005, 'Cannot edit a message authored by another user');
        const { json, files } = await readMessageRequest(req);
        const v2Already = ((record.flags ?? 0) & (1 << 15)) !== 0;
        const body = checkMessageBody(json, files, { edit: true, v2Already, skuAvailable });
        const change: Partial<ChannelMessageRecord> = {};
        if (body.content !== undefined) {
          const mentions = mentionsIn(body.content);
          Object.assign(change, {
            content: body.content,
            mentions: mentions.users,
            mentionRoles: mentions.roles,
          });
        }
        if (body.embeds !== undefined) change.embeds = body.embeds;
        if (body.components !== undefined) change.components = body.components;
        if (body.flags !== undefined) change.flags = body.flags;
        if (body.attachments !== undefined) {
          const next = storeUploads(body, record.attachments ?? []);
          for (const old of record.attachments ?? [])
            if (!next.some((a) => a.id === old.id)) messages.files.delete(old.id);
          change.attachments = next;
        }
        const after = { ...record, ...change };
        if (
          !after.content &&
          !after.embeds?.length &&
          !after.components?.length &&
          !after.attachments?.length &&
          !after.snapshot
        ) {
          throw emptyMessage();
        }
        messages.update(record, change, true);
        return jsonReply(200, view(record, channel));
      },
      { maxBodyBytes: MAX_MESSAGE_BODY_BYTES },
    ),
    apiRoute('DELETE', '/channels/:channel_id/messages/:message_id', (req) => {
      const channel = textChannel(req, 0n);
      const record = message(req, channel);
      if (
        record.authorId !== botId &&
        !hasAll(guilds.permissions(botId, channel.id), Permission.MANAGE_MESSAGES)
      ) {
        throw missingPermissions(['MANAGE_MESSAGES']);
      }
      messages.delete(record);
      return noContentReply();
    }),
    apiRoute('GET', '/channels/:channel_id/messages/:message_id', (req) => {
      const channel = textChannel(req, Permission.READ_MESSAGE_HISTORY);
      return jsonReply(200, view(message(req, channel), channel));
    }),
    apiRoute('GET', '/channels/:channel_id/messages', (req) => {
      const channel = textChannel(req, 0n);
      // Without READ_MESSAGE_HISTORY the platform answers an empty list, not an error.
      if (!hasAll(guilds.permissions(botId, channel.id), Permission.READ_MESSAGE_HISTORY))
        return jsonReply(200, []);
      const query = req.query();
      const limit = queryInteger(query, 'limit', 1, MAX_PAGE, 50);
      const all = messages.inChannel(channel.id);
      const before = query.get('before');
      const after = query.get('after');
      const around = query.get('around');
      let page: ChannelMessageRecord[];
      if (around !== undefined) {
        const index = all.findIndex((m) => compareIds(m.id, around) >= 0);
        const start = Math.max(0, (index < 0 ? all.length : index) - Math.floor(limit / 2));
        page = all.slice(start, start + limit);
      } else if (after !== undefined) {
        page = all.filter((m) => compareIds(m.id, after) > 0).slice(0, limit);
      } else {
        page = (before === undefined ? all : all.filter((m) => compareIds(m.id, before) < 0)).slice(-limit);
      }
      // Newest first, as the platform lists them.
      return jsonReply(
        200,
        page.reverse().map((m) => view(m, channel)),
      );
    }),
  ];
}

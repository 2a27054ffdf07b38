import type { EmulatorContext } from '../context.js';
import { InviteRefusal } from '../social/Invites.js';
import { EPHEMERAL_DM_CHANNEL_TYPE, MAX_HISTORY } from '../social/DirectMessages.js';
import { wireUser } from '../accounts/userObject.js';
import type { DirectMessageRecord, UserRecord } from '../store/types.js';
import { ApiError, invalidFormBody, missingAccess, unknown } from '../platform/errors.js';
import { inviteRefusalError } from './invites.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBearer, requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';
import { requireScope } from './scopes.js';
import { readStringMap } from './stringMap.js';

/** The platform's message content limit, in characters. */
export const MAX_CONTENT = 2000;
/** Developer metadata on a message: at most 25 keys, 1024 characters in all (wire-protocols §1.11). */
export const METADATA_LIMITS = { maxKeys: 25, maxChars: 1024 };
/** Moderation metadata: at most 5 keys, 2000 characters in all. */
export const MODERATION_LIMITS = { maxKeys: 5, maxChars: 2000 };

function cannotMessage(): ApiError {
  return new ApiError(403, 50007, 'Cannot send messages to this user');
}

function objectBody(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalidFormBody({
      _root: { code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' },
    });
  }
  return raw as Record<string, unknown>;
}

function readContent(body: Record<string, unknown>, min: number): string {
  const content = body.content ?? '';
  if (typeof content !== 'string')
    throw invalidFormBody({ content: { code: 'BASE_TYPE_STRING', message: 'Must be a string.' } });
  if (content.length < min || content.length > MAX_CONTENT) {
    throw invalidFormBody({
      content: {
        code: 'BASE_TYPE_BAD_LENGTH',
        message: `Must be between ${min} and ${MAX_CONTENT} in length.`,
      },
    });
  }
  return content;
}

/** Direct-message routes (wire-protocols §4.9) and the server-side moderation endpoint. */
export function directMessageRoutes(ctx: EmulatorContext): Route[] {
  const { store, messages, relationships } = ctx;

  const target = (req: RouteRequest): UserRecord => {
    const user = store.user(req.params.user_id ?? '');
    if (!user || user.bot || user.banned) throw unknown('User');
    return user;
  };
  const conversationMessage = (req: RouteRequest, me: string, other: string): DirectMessageRecord => {
    const message = messages.get(req.params.message_id ?? '');
    const inConversation =
      message &&
      ((message.authorId === me && message.recipientId === other) ||
        (message.authorId === other && message.recipientId === me));
    if (!message || !inConversation) throw unknown('Message');
    return message;
  };
  /** A user holds a live grant of this application (an access or refresh token). */
  const hasAuthorizedApp = (userId: string): boolean =>
    Object.values(store.state.accessTokens).some((t) => t.userId === userId) ||
    Object.values(store.state.refreshTokens).some((t) => t.userId === userId);
  /** Friends, earlier conversation partners, or two players of this game may message each other. */
  const mayMessage = (from: UserRecord, to: UserRecord): boolean =>
    !relationships.blockedEitherWay(from.id, to.id) &&
    (relationships.areFriends(from.id, to.id) ||
      messages.haveTalked(from.id, to.id) ||
      hasAuthorizedApp(to.id));

  return [
    apiRoute('POST', '/users/:user_id/messages', async (req) => {
      const caller = requireBearer(ctx, req);
      const to = target(req);
      const body = objectBody(await req.json());
      const invite = body.activity;
      // Invites need only the invites scope; text needs the messages scope.
      requireScope(caller, invite === undefined ? 'dm_channels.messages.write' : 'activities.invites.write');
      const content = readContent(body, invite === undefined ? 1 : 0);
      if (content.length > 0) requireScope(caller, 'dm_channels.messages.write');
      const metadata = readStringMap(body.metadata, 'metadata', METADATA_LIMITS);
      if (to.id === caller.user.id) throw new ApiError(400, 50007, 'Cannot send messages to yourself');
      if (!mayMessage(caller.user, to)) throw cannotMessage();
      let activity = null;
      if (invite !== undefined) {
        const a = objectBody(invite);
        if (a.type !== 1 && a.type !== 5) {
          throw invalidFormBody({
            activity: { code: 'BASE_TYPE_CHOICES', message: 'type must be 1 or 5.' },
          });
        }
        try {
          activity = ctx.invites.prepare({
            type: a.type,
            authorId: caller.user.id,
            recipientId: to.id,
            sessionId: typeof a.session_id === 'string' ? a.session_id : '',
          });
        } catch (error) {
          if (error instanceof InviteRefusal) throw inviteRefusalError(error);
          throw error;
        }
      }
      const record = messages.create({
        authorId: caller.user.id,
        recipientId: to.id,
        content,
        metadata,
        applicationId: store.state.application.id,
        activity,
      });
      ctx.log.line(
        'messages',
        `${caller.user.username} → ${to.username}: message ${record.id}${activity ? ' (invite)' : ''}`,
      );
      return jsonReply(200, messages.wire(record, caller.user.id));
    }),
    apiRoute('PATCH', '/users/:user_id/messages/:message_id', async (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'dm_channels.messages.write');
      const other = target(req);
      const message = conversationMessage(req, caller.user.id, other.id);
      if (message.authorId !== caller.user.id)
        throw new ApiError(403, 50005, 'Cannot edit a message authored by another user');
      const content = readContent(objectBody(await req.json()), message.activity ? 0 : 1);
      messages.edit(message, content);
      ctx.log.line('messages', `${caller.user.username} edited message ${message.id}`);
      return jsonReply(200, messages.wire(message, caller.user.id));
    }),
    apiRoute('DELETE', '/users/:user_id/messages/:message_id', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'dm_channels.messages.write');
      const other = target(req);
      const message = conversationMessage(req, caller.user.id, other.id);
      if (message.authorId !== caller.user.id)
        throw new ApiError(403, 50003, 'Cannot delete a message authored by another user');
      messages.delete(message);
      ctx.log.line('messages', `${caller.user.username} deleted message ${message.id}`);
      return noContentReply();
    }),
    apiRoute('GET', '/users/:user_id/messages', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'dm_channels.messages.read');
      const other = target(req);
      // The platform serves game DM history only between two users who both authorized the game.
      if (!hasAuthorizedApp(other.id))
        throw missingAccess(`${other.username} has not authorized this application`);
      const raw = req.query().get('limit') ?? '50';
      const limit = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
      if (!(limit >= 1 && limit <= MAX_HISTORY)) {
        throw invalidFormBody({
          limit: { code: 'NUMBER_TYPE_MAX', message: `Must be between 1 and ${MAX_HISTORY}.` },
        });
      }
      const list = messages
        .history(caller.user.id, other.id, limit)
        .map((m) => messages.wire(m, caller.user.id));
      return jsonReply(200, list);
    }),
    apiRoute('GET', '/partner-sdk/users/@me/channels', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'dm_channels.read');
      return jsonReply(200, messages.summaries(caller.user.id));
    }),
    apiRoute('GET', '/users/@me/dms/:user_id', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, 'dm_channels.read');
      const other = target(req);
      return jsonReply(200, {
        id: other.id,
        type: EPHEMERAL_DM_CHANNEL_TYPE,
        name: null,
        recipients: [wireUser(other)],
      });
    }),
    apiRoute(
      'PUT',
      '/partner-sdk/dms/:user_a/:user_b/messages/:message_id/moderation-metadata',
      async (req) => {
        requireBot(ctx, req);
        const a = req.params.user_a ?? '';
        const b = req.params.user_b ?? '';
        const message = messages.get(req.params.message_id ?? '');
        const matches =
          message &&
          ((message.authorId === a && message.recipientId === b) ||
            (message.authorId === b && message.recipientId === a));
        if (!message || !matches) throw unknown('Message');
        const metadata = readStringMap(await req.json(), 'moderation_metadata', MODERATION_LIMITS);
        messages.setModerationMetadata(message, metadata);
        ctx.log.line(
          'messages',
          `moderation metadata set on message ${message.id} (${Object.keys(metadata).length} keys)`,
        );
        return noContentReply();
      },
    ),
  ];
}

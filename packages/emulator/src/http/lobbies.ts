import type { EmulatorContext } from '../context.js';
import { ApiError, missingAccess, unknown } from '../platform/errors.js';
import { MAX_LOBBY_HISTORY, LobbyRefusal } from '../social/Lobbies.js';
import type { LobbyRecord, UserRecord } from '../store/types.js';
import { METADATA_LIMITS, MODERATION_LIMITS, MAX_CONTENT } from './directMessages.js';
import {
  formError,
  idleTimeout,
  lobbyFlags,
  lobbyMetadata,
  memberFields,
  memberList,
  objectBody,
  secret,
  type MemberInput,
} from './lobbyBodies.js';
import { lobbyLinkingRoutes } from './lobbyLinking.js';
import { jsonReply, noContentReply } from './replies.js';
import { authenticate, requireBearer, requireBot, type Caller } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';
import { requireScope } from './scopes.js';
import { readStringMap } from './stringMap.js';

/** The scope every Bearer lobby call needs (part of `sdk.social_layer`). */
const LOBBY_SCOPE = 'lobbies.write';
/**
 * Emulator-defined code of a refused membership (a full lobby, a user in 200 lobbies): the platform's 300xx
 * family is "maximum number of … reached", and it publishes no code for these.
 */
export const LOBBY_LIMIT_CODE = 30_000;

function refusal(error: LobbyRefusal): ApiError {
  return new ApiError(400, LOBBY_LIMIT_CODE, error.message);
}

/** Bearer (with the lobby scope) or Bot. */
function bearerOrBot(ctx: EmulatorContext, req: RouteRequest): Caller {
  const caller = authenticate(ctx, req, { bearer: true, bot: true });
  requireScope(caller, LOBBY_SCOPE);
  return caller;
}

function who(caller: Caller): string {
  return caller.kind === 'bot' ? 'the bot' : caller.user.username;
}

/** The lobby routes of the lobby contract (wire-protocols §4.8) with channel linking, except lobby channel invites. */
export function lobbyRoutes(ctx: EmulatorContext): Route[] {
  const { store, lobbies, log } = ctx;

  const lobbyOf = (req: RouteRequest): LobbyRecord => {
    const lobby = lobbies.get(req.params.lobby_id ?? '');
    if (!lobby) throw unknown('Lobby');
    return lobby;
  };
  /** A user who may be a lobby member: exists, is not the bot, is not banned. */
  const memberUser = (id: string): UserRecord => {
    const user = store.user(id);
    if (!user || user.bot || user.banned) throw unknown('User');
    return user;
  };
  /** Adds or changes members; memberships the limits refuse are dropped, as the platform does in bulk. */
  const applyMembers = (lobby: LobbyRecord, members: MemberInput[]): string[] => {
    const upserted: string[] = [];
    for (const input of members) {
      if (input.remove) {
        lobbies.removeMember(lobby, input.id);
        continue;
      }
      try {
        lobbies.upsertMember(lobby, input.id, input);
        upserted.push(input.id);
      } catch (error) {
        if (!(error instanceof LobbyRefusal)) throw error;
        log.line('lobbies', `user ${input.id} not added to lobby ${lobby.id}: ${error.message}`);
      }
    }
    return upserted;
  };
  const historyLimit = (req: RouteRequest): number => {
    const raw = req.query().get('limit') ?? '50';
    const limit = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (!(limit >= 1 && limit <= MAX_LOBBY_HISTORY)) {
      throw formError(['limit'], {
        code: 'NUMBER_TYPE_MAX',
        message: `Must be between 1 and ${MAX_LOBBY_HISTORY}.`,
      });
    }
    return limit;
  };

  return [
    apiRoute('PUT', '/lobbies', async (req) => {
      const caller = bearerOrBot(ctx, req);
      const body = objectBody(await req.json());
      const key = secret(body);
      const lobbyMeta =
        body.lobby_metadata === undefined ? undefined : lobbyMetadata(body.lobby_metadata, 'lobby_metadata');
      const memberMeta =
        body.member_metadata === undefined
          ? undefined
          : lobbyMetadata(body.member_metadata, 'member_metadata');
      const idle = idleTimeout(body);
      const flags = lobbyFlags(body);
      let lobby = lobbies.bySecret(key);
      const created = lobby === undefined;
      // A player who cannot join changes nothing, not even the lobby's metadata.
      if (caller.kind === 'bearer') {
        try {
          lobbies.checkJoin(lobby, caller.user.id);
        } catch (error) {
          if (error instanceof LobbyRefusal) throw refusal(error);
          throw error;
        }
      }
      if (lobby === undefined) {
        lobby = lobbies.create({
          createdBy: caller.kind === 'bot' ? 'bot' : 'sdk',
          secret: key,
          ...(lobbyMeta === undefined ? {} : { metadata: lobbyMeta }),
          ...(idle === undefined ? {} : { idleTimeoutSeconds: idle }),
          ...(flags === undefined ? {} : { flags }),
        });
      } else {
        lobbies.update(lobby, {
          ...(lobbyMeta === undefined ? {} : { metadata: lobbyMeta }),
          ...(idle === undefined ? {} : { idleTimeoutSeconds: idle }),
          ...(flags === undefined ? {} : { flags }),
        });
      }
      // The bot creates or updates without becoming a member; a player joins (or stays) in.
      if (caller.kind === 'bearer') {
        lobbies.upsertMember(lobby, caller.user.id, memberMeta === undefined ? {} : { metadata: memberMeta });
      }
      log.line('lobbies', `${who(caller)} ${created ? 'created' : 'joined'} lobby ${lobby.id} by secret`);
      return jsonReply(200, lobbies.wire(lobby));
    }),
    apiRoute('POST', '/lobbies', async (req) => {
      requireBot(ctx, req);
      const body = objectBody(await req.json());
      const metadata = body.metadata === undefined ? undefined : lobbyMetadata(body.metadata, 'metadata');
      const members =
        body.members === undefined || body.members === null ? [] : memberList(body.members, 'members');
      const idle = idleTimeout(body);
      const flags = lobbyFlags(body);
      for (const m of members) memberUser(m.id);
      const lobby = lobbies.create({
        createdBy: 'bot',
        secret: null,
        ...(metadata === undefined ? {} : { metadata }),
        ...(idle === undefined ? {} : { idleTimeoutSeconds: idle }),
        ...(flags === undefined ? {} : { flags }),
      });
      applyMembers(
        lobby,
        members.map((m) => ({ ...m, remove: false })),
      );
      return jsonReply(201, lobbies.wire(lobby));
    }),
    apiRoute('GET', '/lobbies/:lobby_id', (req) => {
      requireBot(ctx, req);
      return jsonReply(200, lobbies.wire(lobbyOf(req)));
    }),
    apiRoute('PATCH', '/lobbies/:lobby_id', async (req) => {
      requireBot(ctx, req);
      const lobby = lobbyOf(req);
      const body = objectBody(await req.json());
      const metadata = body.metadata === undefined ? undefined : lobbyMetadata(body.metadata, 'metadata');
      const members =
        body.members === undefined || body.members === null ? undefined : memberList(body.members, 'members');
      const idle = idleTimeout(body);
      const flags = lobbyFlags(body);
      for (const m of members ?? []) memberUser(m.id);
      lobbies.update(lobby, {
        ...(metadata === undefined ? {} : { metadata }),
        ...(idle === undefined ? {} : { idleTimeoutSeconds: idle }),
        ...(flags === undefined ? {} : { flags }),
      });
      if (members !== undefined) {
        // `members` replaces the set: whoever is not listed goes.
        const keep = new Set(members.map((m) => m.id));
        for (const member of [...lobby.members])
          if (!keep.has(member.userId)) lobbies.removeMember(lobby, member.userId);
        applyMembers(
          lobby,
          members.map((m) => ({ ...m, remove: false })),
        );
      }
      log.line('lobbies', `the bot changed lobby ${lobby.id}`);
      return jsonReply(200, lobbies.wire(lobby));
    }),
    apiRoute('DELETE', '/lobbies/:lobby_id', (req) => {
      requireBot(ctx, req);
      const lobby = lobbies.get(req.params.lobby_id ?? '');
      // Idempotent: deleting a lobby that is gone succeeds.
      if (lobby) lobbies.delete(lobby, 'by the bot');
      return noContentReply();
    }),
    apiRoute('DELETE', '/lobbies/:lobby_id/members/@me', (req) => {
      const caller = requireBearer(ctx, req);
      requireScope(caller, LOBBY_SCOPE);
      const lobby = lobbyOf(req);
      // Players cannot leave lobbies the game backend made with POST /lobbies (wire-protocols §4.8);
      // the code is emulator-defined.
      if (lobby.secret === null && lobbies.isMember(lobby.id, caller.user.id)) throw missingAccess();
      lobbies.removeMember(lobby, caller.user.id);
      return noContentReply();
    }),
    apiRoute('PUT', '/lobbies/:lobby_id/members/:user_id', async (req) => {
      requireBot(ctx, req);
      const lobby = lobbyOf(req);
      const user = memberUser(req.params.user_id ?? '');
      const { remove: _remove, ...change } = memberFields(objectBody(await req.json()), []);
      try {
        const member = lobbies.upsertMember(lobby, user.id, change);
        return jsonReply(200, lobbies.wireMember(member));
      } catch (error) {
        if (error instanceof LobbyRefusal) throw refusal(error);
        throw error;
      }
    }),
    apiRoute('DELETE', '/lobbies/:lobby_id/members/:user_id', (req) => {
      requireBot(ctx, req);
      const lobby = lobbyOf(req);
      // Removing a non-member succeeds.
      lobbies.removeMember(lobby, req.params.user_id ?? '');
      return noContentReply();
    }),
    apiRoute('POST', '/lobbies/:lobby_id/members/bulk', async (req) => {
      requireBot(ctx, req);
      const lobby = lobbyOf(req);
      const changes = memberList(await req.json(), null);
      // Every user is checked before anything changes.
      for (const change of changes) memberUser(change.id);
      const upserted = applyMembers(lobby, changes);
      log.line('lobbies', `bulk: ${changes.length} member change(s) in lobby ${lobby.id}`);
      const members = [...new Set(upserted)].flatMap((id) => {
        const member = lobbies.member(lobby.id, id);
        return member ? [lobbies.wireMember(member)] : [];
      });
      return jsonReply(200, members);
    }),
    apiRoute('GET', '/lobbies/:lobby_id/messages', (req) => {
      const caller = bearerOrBot(ctx, req);
      const lobby = lobbyOf(req);
      if (caller.kind === 'bearer' && !lobbies.isMember(lobby.id, caller.user.id)) throw missingAccess();
      const limit = historyLimit(req);
      return jsonReply(
        200,
        lobbies.history(lobby.id, limit).map((m) => lobbies.wireMessage(m)),
      );
    }),
    apiRoute('POST', '/lobbies/:lobby_id/messages', async (req) => {
      const caller = bearerOrBot(ctx, req);
      const lobby = lobbyOf(req);
      if (caller.kind === 'bearer' && !lobbies.isMember(lobby.id, caller.user.id)) throw missingAccess();
      const body = objectBody(await req.json());
      const content = body.content;
      if (typeof content !== 'string') {
        throw formError(['content'], { code: 'BASE_TYPE_STRING', message: 'Must be a string.' });
      }
      if (content.length < 1 || content.length > MAX_CONTENT) {
        throw formError(['content'], {
          code: 'BASE_TYPE_BAD_LENGTH',
          message: `Must be between 1 and ${MAX_CONTENT} in length.`,
        });
      }
      const metadata = readStringMap(body.metadata, 'metadata', METADATA_LIMITS);
      const message = lobbies.postMessage({
        lobbyId: lobby.id,
        authorId: caller.user.id,
        content,
        metadata,
        fromGame: true,
      });
      return jsonReply(201, lobbies.wireMessage(message));
    }),
    apiRoute('PUT', '/lobbies/:lobby_id/messages/:message_id/moderation-metadata', async (req) => {
      requireBot(ctx, req);
      const lobby = lobbyOf(req);
      const message = lobbies.message(lobby.id, req.params.message_id ?? '');
      if (!message) throw unknown('Message');
      const metadata = readStringMap(objectBody(await req.json()), 'moderation_metadata', MODERATION_LIMITS);
      lobbies.setModerationMetadata(message, metadata);
      return noContentReply();
    }),
    ...lobbyLinkingRoutes(ctx),
  ];
}

import type { EmulatorContext } from '../context.js';
import { ApiError, unknown } from '../platform/errors.js';
import { RelationshipRefusal, type RelationshipGraph } from '../social/Relationships.js';
import { wireAnyRelationship } from '../social/wire.js';
import type { UserRecord } from '../store/types.js';
import { jsonReply, noContentReply, type Reply } from './replies.js';
import { requireBearer } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';
import { requireScope } from './scopes.js';
import { BodyReader } from './validation.js';

/** The platform's error for each refusal (JSON error codes 80xxx are the friend-request family). */
function refusalError(refusal: RelationshipRefusal): ApiError {
  switch (refusal.reason) {
    case 'self':
      return new ApiError(400, 80003, refusal.message);
    case 'blocked':
      return new ApiError(400, 80001, refusal.message);
    case 'already_friends':
      return new ApiError(400, 80007, refusal.message);
    default:
      return new ApiError(404, 10070, refusal.message);
  }
}

/** A user another user may befriend or block: it exists, is not the bot and is not banned. */
function reachableUser(ctx: EmulatorContext, idOrName: string, byName: boolean): UserRecord {
  const user = byName ? ctx.store.findUser(idOrName) : ctx.store.user(idOrName);
  if (!user || user.bot || user.banned || (byName && user.id === idOrName)) {
    throw byName ? new ApiError(400, 80004, 'No users with that username exist.') : unknown('User');
  }
  return user;
}

function run(action: () => void): Reply {
  try {
    action();
  } catch (error) {
    if (error instanceof RelationshipRefusal) throw refusalError(error);
    throw error;
  }
  return noContentReply();
}

/** Routes of one graph: `/users/@me/relationships` or `/users/@me/game-relationships`. */
function graphRoutes(ctx: EmulatorContext, graph: RelationshipGraph, base: string): Route[] {
  const { relationships, store } = ctx;
  const caller = (req: RouteRequest, scope: string): string => {
    const who = requireBearer(ctx, req);
    requireScope(who, scope);
    return who.user.id;
  };
  return [
    apiRoute('GET', base, (req) => {
      const me = caller(req, 'relationships.read');
      const list = relationships.list(graph, me).flatMap((record) => {
        const target = store.user(record.targetId);
        return target ? [wireAnyRelationship(graph, record, target, store.state.application.id)] : [];
      });
      return jsonReply(200, list);
    }),
    apiRoute('POST', base, async (req) => {
      const me = caller(req, 'relationships.write');
      const body = new BodyReader(await req.json());
      const username = body.string('username', 2, 32, true);
      body.finish();
      const target = reachableUser(ctx, username ?? '', true);
      return run(() => relationships.request(graph, me, target.id));
    }),
    apiRoute('PUT', `${base}/:user_id`, async (req) => {
      const me = caller(req, 'relationships.write');
      const target = reachableUser(ctx, req.params.user_id ?? '', false);
      const raw = (await req.json().catch(() => ({}))) as { type?: unknown } | null;
      const type = raw && typeof raw === 'object' ? raw.type : undefined;
      if (type === 2 && graph === 'discord') return run(() => relationships.block(me, target.id));
      if (type !== undefined && type !== null && type !== 1 && type !== -1) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: {
            type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (-1, 1, 2).' }] },
          },
        });
      }
      return run(() => relationships.request(graph, me, target.id));
    }),
    apiRoute('DELETE', `${base}/:user_id`, (req) => {
      const me = caller(req, 'relationships.write');
      const target = reachableUser(ctx, req.params.user_id ?? '', false);
      return run(() => relationships.remove(graph, me, target.id));
    }),
  ];
}

/** Platform and game relationship routes (reference §4.10). */
export function relationshipRoutes(ctx: EmulatorContext): Route[] {
  return [
    ...graphRoutes(ctx, 'discord', '/users/@me/relationships'),
    ...graphRoutes(ctx, 'game', '/users/@me/game-relationships'),
  ];
}

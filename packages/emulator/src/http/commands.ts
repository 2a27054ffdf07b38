import type { EmulatorContext } from '../context.js';
import { checkCommandBody } from '../interactions/commandBodies.js';
import { ApiError } from '../platform/errors.js';
import type { CommandRecord } from '../store/types.js';
import { guildForBot, requireOwnApplication } from './botAccess.js';
import { jsonReply, noContentReply } from './replies.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** A command as the API returns it. */
export function wireCommand(command: CommandRecord, applicationId: string): Record<string, unknown> {
  return {
    id: command.id,
    application_id: applicationId,
    ...(command.guildId === null ? {} : { guild_id: command.guildId }),
    type: command.type,
    name: command.name,
    description: command.description,
    ...(command.options.length > 0 ? { options: command.options } : {}),
    default_member_permissions: command.defaultMemberPermissions,
    // Deprecated in favour of contexts; still sent for guild commands' old readers.
    dm_permission: command.contexts.includes(1),
    integration_types: command.integrationTypes,
    contexts: command.contexts,
    nsfw: command.nsfw,
    ...(command.handler === null ? {} : { handler: command.handler }),
    version: command.version,
  };
}

/**
 * Application command routes, global (`/applications/{app}/commands`) and per guild
 * (`/applications/{app}/guilds/{guild}/commands`): list, get, create (an existing name and type is replaced,
 * 200 instead of 201), edit, delete and bulk overwrite, with the bot token. The limits live in Commands.
 */
export function commandRoutes(ctx: EmulatorContext): Route[] {
  const { commands } = ctx;
  const applicationId = ctx.store.state.application.id;

  const scope = (req: RouteRequest): string | null => {
    requireOwnApplication(ctx, req);
    const guildId = req.params.guild_id;
    if (guildId === undefined) return null;
    guildForBot(ctx, guildId);
    return guildId;
  };
  const one = (req: RouteRequest, guildId: string | null): CommandRecord => {
    const command = commands.get(guildId, req.params.command_id ?? '');
    if (!command) throw new ApiError(404, 10063, 'Unknown application command');
    return command;
  };

  const routes = (base: string): Route[] => [
    apiRoute('GET', base, (req) =>
      jsonReply(
        200,
        commands.list(scope(req)).map((c) => wireCommand(c, applicationId)),
      ),
    ),
    apiRoute('POST', base, async (req) => {
      const guildId = scope(req);
      const { command, created } = commands.upsert(guildId, checkCommandBody(await req.json()));
      return jsonReply(created ? 201 : 200, wireCommand(command, applicationId));
    }),
    apiRoute('PUT', base, async (req) => {
      const guildId = scope(req);
      const body = await req.json();
      if (!Array.isArray(body)) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: { _errors: [{ code: 'BASE_TYPE_LIST', message: 'Must be a list.' }] },
        });
      }
      const list = body.map((item) => checkCommandBody(item));
      return jsonReply(
        200,
        commands.overwrite(guildId, list).map((c) => wireCommand(c, applicationId)),
      );
    }),
    apiRoute('GET', `${base}/:command_id`, (req) =>
      jsonReply(200, wireCommand(one(req, scope(req)), applicationId)),
    ),
    apiRoute('PATCH', `${base}/:command_id`, async (req) => {
      const command = one(req, scope(req));
      commands.update(command, checkCommandBody(await req.json(), command));
      return jsonReply(200, wireCommand(command, applicationId));
    }),
    apiRoute('DELETE', `${base}/:command_id`, (req) => {
      commands.delete(one(req, scope(req)));
      return noContentReply();
    }),
  ];

  return [
    ...routes('/applications/:application_id/commands'),
    ...routes('/applications/:application_id/guilds/:guild_id/commands'),
  ];
}

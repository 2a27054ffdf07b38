import { FieldErrors, optionalName, optionalString, requireObjectBody } from '../bodies/fieldErrors.js';
import { imageField } from '../bodies/imageField.js';
import { wireGuild } from '../bot/guildWire.js';
import type { EmulatorContext } from '../context.js';
import { Permission } from '../platform/permissions.js';
import type { GuildChange } from '../social/Guilds.js';
import { guildForBot } from './botAccess.js';
import { MAX_APPLICATION_IMAGE_BYTES } from './applicationEdit.js';
import { jsonReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';

/** The platform's guild name length. */
const GUILD_NAME = { min: 2, max: 100 } as const;
/** The longest guild description. */
const MAX_GUILD_DESCRIPTION = 120;

/**
 * Modify Guild (`PATCH /guilds/{guild.id}`) with MANAGE_GUILD: the name, icon and description, the fields a
 * player sees change (GUILD_UPDATE to bots, GUILD_STATUS to the desktop client's subscribers). Other fields of
 * the platform's body are accepted and left as they are, as the emulator models no setting behind them.
 */
export function guildEditRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('PATCH', '/guilds/:guild_id', async (req) => {
      requireBot(ctx, req);
      const guild = guildForBot(ctx, req.params.guild_id ?? '', Permission.MANAGE_GUILD);
      const b = requireObjectBody(await req.json());
      const errors = new FieldErrors();
      const change: GuildChange = {};
      const name = optionalName(errors, ['name'], b.name, GUILD_NAME.max, GUILD_NAME.min);
      if (name !== undefined) change.name = name;
      if (Object.hasOwn(b, 'icon')) {
        const icon = imageField(errors, ['icon'], b.icon, MAX_APPLICATION_IMAGE_BYTES);
        if (icon !== undefined) change.icon = icon;
      }
      if (b.description === null || b.description === '') change.description = null;
      else {
        const description = optionalString(errors, ['description'], b.description, MAX_GUILD_DESCRIPTION);
        if (description !== undefined) change.description = description;
      }
      errors.finish();
      return jsonReply(200, wireGuild(ctx.guilds.updateGuild(guild.id, change), ctx.guilds));
    }),
  ];
}

import type { EmulatorContext } from '../context.js';
import { emulatorInfoRoutes } from './emulatorInfo.js';
import { gatewayRoutes } from './gateway.js';
import { oauth2Routes } from './oauth2.js';
import { provisionalRoutes } from './provisional.js';
import { channelInviteRoutes } from './channelInvites.js';
import { directMessageRoutes } from './directMessages.js';
import { guildRoutes } from './guilds.js';
import { inviteRoutes } from './invites.js';
import { lobbyRoutes } from './lobbies.js';
import { relationshipRoutes } from './relationships.js';
import type { Route } from './router.js';
import { tokenRoutes } from './token.js';
import { userRoutes } from './users.js';

/** Every HTTP route of the emulator; later features add their groups here. */
export function allRoutes(ctx: EmulatorContext): Route[] {
  return [
    ...oauth2Routes(ctx),
    ...tokenRoutes(ctx),
    ...userRoutes(ctx),
    ...gatewayRoutes(ctx),
    ...emulatorInfoRoutes(ctx),
    ...provisionalRoutes(ctx),
    ...relationshipRoutes(ctx),
    ...inviteRoutes(ctx),
    ...directMessageRoutes(ctx),
    ...lobbyRoutes(ctx),
    ...guildRoutes(ctx),
    ...channelInviteRoutes(ctx),
  ];
}

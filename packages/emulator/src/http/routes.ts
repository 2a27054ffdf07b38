import type { EmulatorContext } from '../context.js';
import { activateRoutes } from './activatePage.js';
import { deviceAuthorizeRoutes } from './deviceAuthorize.js';
import { emulatorInfoRoutes } from './emulatorInfo.js';
import { gatewayRoutes } from './gateway.js';
import { oauth2Routes } from './oauth2.js';
import { provisionalRoutes } from './provisional.js';
import { childTokenRoutes } from './childToken.js';
import { currentAccountRoutes } from './currentAccount.js';
import { appEmojiRoutes } from './appEmojis.js';
import { attachmentRoutes } from './attachments.js';
import { autoModRuleRoutes } from './autoModRules.js';
import { channelInviteRoutes } from './channelInvites.js';
import { channelMessageRoutes } from './channelMessages.js';
import { commandRoutes } from './commands.js';
import { currentApplicationRoutes } from './currentApplication.js';
import { directMessageRoutes } from './directMessages.js';
import { guildBanRoutes } from './guildBans.js';
import { guildChannelRoutes } from './guildChannels.js';
import { guildEmojiRoutes } from './guildEmojis.js';
import { guildInviteRoutes } from './guildInvites.js';
import { guildMemberRoutes } from './guildMembers.js';
import { guildEditRoutes } from './guildEdit.js';
import { guildRoleRoutes } from './guildRoles.js';
import { guildSearchRoutes } from './guildSearch.js';
import { guildStickerRoutes } from './guildStickers.js';
import { guildVoiceRoutes } from './guildVoice.js';
import { guildRoutes } from './guilds.js';
import { currentUserGuildRoutes } from './currentUserGuilds.js';
import { interactionRoutes } from './interactionRoutes.js';
import { inviteRoutes } from './invites.js';
import { lobbyRoutes } from './lobbies.js';
import { pinRoutes } from './pins.js';
import { premiumRoutes } from './premium.js';
import { storeRoutes } from './storePage.js';
import { relationshipRoutes } from './relationships.js';
import { scheduledEventRoutes } from './scheduledEvents.js';
import { soundboardRoutes } from './soundboard.js';
import type { Route } from './router.js';
import { tokenRoutes } from './token.js';
import { userRoutes } from './users.js';

/** Every HTTP route of the emulator; later features add their groups here. */
export function allRoutes(ctx: EmulatorContext): Route[] {
  return [
    ...oauth2Routes(ctx),
    ...tokenRoutes(ctx),
    ...deviceAuthorizeRoutes(ctx),
    ...activateRoutes(ctx),
    ...userRoutes(ctx),
    ...gatewayRoutes(ctx),
    ...emulatorInfoRoutes(ctx),
    ...provisionalRoutes(ctx),
    ...childTokenRoutes(ctx),
    ...currentAccountRoutes(ctx),
    ...relationshipRoutes(ctx),
    ...inviteRoutes(ctx),
    ...directMessageRoutes(ctx),
    ...lobbyRoutes(ctx),
    ...guildRoutes(ctx),
    ...currentUserGuildRoutes(ctx),
    ...guildEditRoutes(ctx),
    ...guildRoleRoutes(ctx),
    ...guildMemberRoutes(ctx),
    ...guildBanRoutes(ctx),
    ...guildChannelRoutes(ctx),
    ...guildVoiceRoutes(ctx),
    ...guildSearchRoutes(ctx),
    ...guildInviteRoutes(ctx),
    ...channelInviteRoutes(ctx),
    ...pinRoutes(ctx),
    ...channelMessageRoutes(ctx),
    ...attachmentRoutes(ctx),
    ...commandRoutes(ctx),
    ...currentApplicationRoutes(ctx),
    ...appEmojiRoutes(ctx),
    ...guildEmojiRoutes(ctx),
    ...guildStickerRoutes(ctx),
    ...scheduledEventRoutes(ctx),
    ...soundboardRoutes(ctx),
    ...autoModRuleRoutes(ctx),
    ...premiumRoutes(ctx),
    ...storeRoutes(ctx),
    ...interactionRoutes(ctx),
  ];
}

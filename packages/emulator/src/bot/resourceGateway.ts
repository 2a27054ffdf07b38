import { Intent } from '../platform/intents.js';
import { Permission, hasAll } from '../platform/permissions.js';
import type { Guilds } from '../social/Guilds.js';
import type { ResourceChange } from '../social/GuildResources.js';
import type { EmulatorStore } from '../store/Store.js';
import type { BotGateway } from './botGateway.js';
import { wireAutoModRule, wireEmoji, wireScheduledEvent, wireSound, wireSticker } from './resourceWire.js';

const SUFFIX: Record<ResourceChange, string> = { create: 'CREATE', update: 'UPDATE', delete: 'DELETE' };

/**
 * Tells the bot's sessions about a guild's resources: GUILD_EMOJIS_UPDATE and GUILD_STICKERS_UPDATE (the
 * whole list) and GUILD_SOUNDBOARD_SOUND_* under GUILD_EXPRESSIONS, GUILD_SCHEDULED_EVENT_* under
 * GUILD_SCHEDULED_EVENTS, and AUTO_MODERATION_RULE_* under AUTO_MODERATION_CONFIGURATION (which the platform
 * sends only to bots holding MANAGE_GUILD, as the rules are theirs to see).
 */
export function wireResourceGateway(deps: { bot: BotGateway; guilds: Guilds; store: EmulatorStore }): void {
  const { bot, guilds, store } = deps;
  const botId = store.state.application.id;
  const resources = guilds.resources;
  const inGuild = (guildId: string): boolean => guilds.isMember(guildId, botId);

  resources.on('emojis', (guildId) => {
    if (!inGuild(guildId)) return;
    bot.dispatch('GUILD_EMOJIS_UPDATE', Intent.GUILD_EXPRESSIONS, guildId, () => ({
      guild_id: guildId,
      emojis: resources.list(guildId, 'emojis').map((e) => wireEmoji(e)),
    }));
  });
  resources.on('stickers', (guildId) => {
    if (!inGuild(guildId)) return;
    bot.dispatch('GUILD_STICKERS_UPDATE', Intent.GUILD_EXPRESSIONS, guildId, () => ({
      guild_id: guildId,
      stickers: resources.list(guildId, 'stickers').map((s) => wireSticker(s, guildId)),
    }));
  });
  resources.on('sound', (change, guildId, record) => {
    if (!inGuild(guildId)) return;
    bot.dispatch(`GUILD_SOUNDBOARD_SOUND_${SUFFIX[change]}`, Intent.GUILD_EXPRESSIONS, guildId, () =>
      change === 'delete'
        ? { sound_id: record.id, guild_id: guildId }
        : wireSound(record, guildId, store.user(record.userId)),
    );
  });
  resources.on('scheduledEvent', (change, guildId, record) => {
    if (!inGuild(guildId)) return;
    bot.dispatch(`GUILD_SCHEDULED_EVENT_${SUFFIX[change]}`, Intent.GUILD_SCHEDULED_EVENTS, guildId, () =>
      wireScheduledEvent(record, guildId, store.user(record.creatorId)),
    );
  });
  resources.on('autoModRule', (change, guildId, record) => {
    if (!inGuild(guildId)) return;
    if (!hasAll(guilds.guildPermissions(guildId, botId), Permission.MANAGE_GUILD)) return;
    bot.dispatch(
      `AUTO_MODERATION_RULE_${SUFFIX[change]}`,
      Intent.AUTO_MODERATION_CONFIGURATION,
      guildId,
      () => wireAutoModRule(record, guildId),
    );
  });
}

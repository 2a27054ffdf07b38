import { FieldErrors, isRecord, requireObjectBody } from '../bodies/fieldErrors.js';
import { MAX_SOUND_BYTES, readSoundBody } from '../bodies/soundBody.js';
import { wireSound } from '../bot/resourceWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError, missingAccess, missingPermissions, unknown } from '../platform/errors.js';
import { Intent } from '../platform/intents.js';
import { Permission, hasAll, permissionNames } from '../platform/permissions.js';
import { DEFAULT_SOUNDS, defaultSound } from '../social/defaultSounds.js';
import type { GuildRecord, SoundboardSoundRecord } from '../store/types.js';
import { channelForBot } from './botAccess.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import {
  EXPRESSION_BITS,
  guildResource,
  requireCreate,
  requireEdit,
  resourceGuild,
} from './resourceAccess.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Soundboard sounds per guild (the platform's limit for a guild without boosts; 30045 beyond it). */
export const MAX_GUILD_SOUNDS = 8;

/**
 * The soundboard over HTTP (no audio is played): the default sounds, a guild's sounds (list as `{items}`, get,
 * create with CREATE_GUILD_EXPRESSIONS, modify, delete; permissions as for emoji), and Send Soundboard Sound,
 * which needs SPEAK and USE_SOUNDBOARD in the voice channel, the bot in that channel (a voice state, not
 * self-muted or deafened), and USE_EXTERNAL_SOUNDS for a sound of another guild. It dispatches
 * VOICE_CHANNEL_EFFECT_SEND to the guild under GUILD_VOICE_STATES; sound changes send
 * GUILD_SOUNDBOARD_SOUND_* (resourceGateway.ts).
 */
export function soundboardRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const resources = guilds.resources;
  const botId = store.state.application.id;
  const view = (guild: GuildRecord, s: SoundboardSoundRecord): Record<string, unknown> =>
    wireSound(s, guild.id, store.user(s.userId));
  const one = (req: RouteRequest) => guildResource(ctx, req, 'soundboardSounds', 'sound_id', 'Sound');
  const base = '/guilds/:guild_id/soundboard-sounds';
  return [
    apiRoute('GET', '/soundboard-default-sounds', (req) => {
      requireBot(ctx, req);
      return jsonReply(
        200,
        DEFAULT_SOUNDS.map((s) => wireSound(s, null)),
      );
    }),
    apiRoute('GET', base, (req) => {
      const guild = resourceGuild(ctx, req);
      return jsonReply(200, {
        items: resources.list(guild.id, 'soundboardSounds').map((s) => view(guild, s)),
      });
    }),
    apiRoute('GET', `${base}/:sound_id`, (req) => {
      const { guild, record: sound } = one(req);
      return jsonReply(200, view(guild, sound));
    }),
    apiRoute(
      'POST',
      base,
      async (req) => {
        const guild = resourceGuild(ctx, req);
        requireCreate(ctx, guild, EXPRESSION_BITS);
        const errors = new FieldErrors();
        const f = readSoundBody(errors, requireObjectBody(await req.json()), true);
        errors.finish();
        if (resources.list(guild.id, 'soundboardSounds').length >= MAX_GUILD_SOUNDS) {
          throw new ApiError(400, 30045, `Maximum number of soundboard sounds reached (${MAX_GUILD_SOUNDS})`);
        }
        const record = resources.add(guild.id, 'soundboardSounds', {
          id: store.nextId(),
          name: f.name ?? '',
          volume: f.volume ?? 1,
          emojiId: f.emojiId ?? null,
          emojiName: f.emojiName ?? null,
          userId: botId,
          createdAt: store.now(),
        });
        return jsonReply(201, view(guild, record));
      },
      // The sound arrives base64 in JSON: a third larger than its 512 KiB.
      { maxBodyBytes: Math.ceil((MAX_SOUND_BYTES * 4) / 3) + 4096 },
    ),
    apiRoute('PATCH', `${base}/:sound_id`, async (req) => {
      const { guild, record: sound } = one(req);
      requireEdit(ctx, guild, sound.userId, EXPRESSION_BITS);
      const body = await req.json();
      const errors = new FieldErrors();
      const f = readSoundBody(errors, isRecord(body) ? body : {}, false);
      errors.finish();
      resources.update(guild.id, 'soundboardSounds', sound, f);
      return jsonReply(200, view(guild, sound));
    }),
    apiRoute('DELETE', `${base}/:sound_id`, (req) => {
      const { guild, record: sound } = one(req);
      requireEdit(ctx, guild, sound.userId, EXPRESSION_BITS);
      resources.delete(guild.id, 'soundboardSounds', sound.id);
      return noContentReply();
    }),
    apiRoute('POST', '/channels/:channel_id/send-soundboard-sound', async (req) => {
      requireBot(ctx, req);
      const channel = channelForBot(ctx, req.params.channel_id ?? '');
      if (channel.type !== 2) throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
      const b = requireObjectBody(await req.json());
      const errors = new FieldErrors();
      const soundId =
        typeof b.sound_id === 'string' && /^[0-9]{1,20}$/.test(b.sound_id) ? b.sound_id : undefined;
      if (soundId === undefined) errors.add(['sound_id'], 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
      let source: string | undefined;
      if (b.source_guild_id !== undefined && b.source_guild_id !== null) {
        if (typeof b.source_guild_id === 'string' && /^[0-9]{1,20}$/.test(b.source_guild_id)) {
          source = b.source_guild_id;
        } else errors.add(['source_guild_id'], 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
      }
      errors.finish();
      const external = source !== undefined && source !== channel.guildId;
      const needed =
        Permission.SPEAK | Permission.USE_SOUNDBOARD | (external ? Permission.USE_EXTERNAL_SOUNDS : 0n);
      const held = guilds.permissions(botId, channel.id);
      if (!hasAll(held, needed)) throw missingPermissions(permissionNames(needed & ~held));
      const state = guilds.voice.state(channel.guildId, botId);
      if (state?.channelId !== channel.id) {
        throw missingAccess('the bot must be connected to the voice channel to play a sound there');
      }
      if (state.selfMute || state.selfDeaf) {
        throw missingAccess('the bot may not play a sound while muted or deafened');
      }
      // A sound of another guild only counts when the bot is in that guild too, as a user must be.
      const found =
        source === undefined
          ? (resources.get(channel.guildId, 'soundboardSounds', soundId ?? '') ?? defaultSound(soundId ?? ''))
          : guilds.isMember(source, botId)
            ? resources.get(source, 'soundboardSounds', soundId ?? '')
            : undefined;
      if (!found) throw unknown('Sound');
      ctx.log.line('guilds', `the bot played sound ${found.name} in #${channel.name}`);
      ctx.bot.dispatch('VOICE_CHANNEL_EFFECT_SEND', Intent.GUILD_VOICE_STATES, channel.guildId, () => ({
        channel_id: channel.id,
        guild_id: channel.guildId,
        user_id: botId,
        emoji:
          found.emojiId === null && found.emojiName === null
            ? null
            : { id: found.emojiId, name: found.emojiName },
        animation_type: null,
        animation_id: null,
        sound_id: found.id,
        sound_volume: found.volume,
      }));
      return noContentReply();
    }),
  ];
}

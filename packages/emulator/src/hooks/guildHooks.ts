import { z } from 'zod';

import { defineHook, idArg, noArgs, permissionsArg, userArg, type AdminHook } from './hook.js';
import { extrasArgs } from './messageHooks.js';

const AREA = 'Guilds, channels and lobbies';

/** A permission overwrite's bits. */
const bits = z.strictObject({ allow: permissionsArg.exactOptional(), deny: permissionsArg.exactOptional() });

/** A channel of createGuild. */
const channelSpec = z.strictObject({
  name: z.string().min(1),
  type: z.union([z.literal(0), z.literal(2), z.literal(4)]).exactOptional(),
  position: z.int().nonnegative().exactOptional(),
  parent: z.string().min(1).exactOptional(),
  overwrites: z
    .array(
      z.strictObject({
        target: z.string().min(1),
        allow: permissionsArg.exactOptional(),
        deny: permissionsArg.exactOptional(),
      }),
    )
    .exactOptional(),
});

/** Guilds, their members, roles, channels and messages, and the lobbies. */
export const GUILD_HOOKS: readonly AdminHook[] = [
  defineHook({
    name: 'guilds',
    area: AREA,
    description: 'Every guild with its members, roles and channels.',
    args: noArgs,
    run: (emulator) => emulator.guilds(),
  }),
  defineHook({
    name: 'createGuild',
    area: AREA,
    description: 'Creates a guild owned by a user, with members and channels (default: one #general).',
    args: z.strictObject({
      name: z.string().min(1),
      owner: userArg,
      members: z
        .array(
          z.union([userArg, z.strictObject({ user: userArg, permissions: permissionsArg.exactOptional() })]),
        )
        .exactOptional(),
      channels: z.array(channelSpec).exactOptional(),
    }),
    run: (emulator, args) => emulator.createGuild(args),
  }),
  defineHook({
    name: 'addGuildMember',
    area: AREA,
    description: "Makes a user a guild member, or changes a member's permissions.",
    args: z.strictObject({ guildId: idArg, userId: userArg, permissions: permissionsArg.exactOptional() }),
    run: (emulator, { guildId, userId, ...options }) => {
      emulator.addGuildMember(guildId, userId, options);
    },
  }),
  defineHook({
    name: 'addBotToGuild',
    area: AREA,
    description: "Adds the application's bot to a guild with a managed role holding the permissions.",
    args: z.strictObject({ guildId: idArg, permissions: permissionsArg.exactOptional() }),
    run: (emulator, { guildId, ...options }) => {
      emulator.addBotToGuild(guildId, options);
    },
  }),
  defineHook({
    name: 'createRole',
    area: AREA,
    description: 'Creates a role in a guild.',
    args: z.strictObject({
      guildId: idArg,
      name: z.string().min(1),
      permissions: permissionsArg.exactOptional(),
    }),
    run: (emulator, { guildId, ...options }) => emulator.createRole(guildId, options),
  }),
  defineHook({
    name: 'setMemberRoles',
    area: AREA,
    description: 'Sets a member\'s roles (user: a username, an id or "@bot").',
    args: z.strictObject({ guildId: idArg, user: userArg, roleIds: z.array(idArg) }),
    run: (emulator, { guildId, user, roleIds }) => {
      emulator.setMemberRoles(guildId, user, roleIds);
    },
  }),
  defineHook({
    name: 'setChannelOverwrite',
    area: AREA,
    description: 'Sets (null: removes) a channel overwrite for "@everyone", a role, a user or "@bot".',
    args: z.strictObject({ channelId: idArg, target: z.string().min(1), overwrite: bits.nullable() }),
    run: (emulator, { channelId, target, overwrite }) => {
      emulator.setChannelOverwrite(channelId, target, overwrite);
    },
  }),
  defineHook({
    name: 'setGuildVoiceState',
    area: AREA,
    description: 'Puts a member in a guild voice channel, or out of voice with null.',
    args: z.strictObject({ guildId: idArg, user: userArg, channelId: idArg.nullable() }),
    run: (emulator, { guildId, user, channelId }) => {
      emulator.setGuildVoiceState(guildId, user, channelId);
    },
  }),
  defineHook({
    name: 'joinVoiceChannel',
    area: AREA,
    description:
      'A user joins a voice channel with audio: speaks the WAV file `play`, records what they hear into `record`.',
    args: z.strictObject({
      user: userArg,
      channel: idArg,
      play: z.string().min(1).max(4096).exactOptional(),
      record: z.string().min(1).max(4096).exactOptional(),
    }),
    run: (emulator, args) => ({ sessionId: emulator.joinVoiceChannel(args).sessionId }),
  }),
  defineHook({
    name: 'leaveVoiceChannel',
    area: AREA,
    description:
      'A user joinVoiceChannel put in a voice channel leaves it (their recording is then complete).',
    args: z.strictObject({ user: userArg }),
    run: (emulator, { user }) => emulator.leaveVoiceChannel(user),
  }),
  defineHook({
    name: 'setAutoModKeywords',
    area: AREA,
    description: 'Keywords AutoMod blocks in a guild (400 200000).',
    args: z.strictObject({ guildId: idArg, keywords: z.array(z.string().min(1)) }),
    run: (emulator, { guildId, keywords }) => {
      emulator.setAutoModKeywords(guildId, keywords);
    },
  }),
  defineHook({
    name: 'setGuildFeatures',
    area: AREA,
    description: "Sets a guild's features (ENHANCED_ROLE_COLORS allows gradient role colours).",
    args: z.strictObject({
      guildId: idArg,
      features: z.array(z.string().regex(/^[A-Z0-9_]{1,64}$/, 'must be a feature name')).max(64),
    }),
    run: (emulator, { guildId, features }) => {
      emulator.setGuildFeatures(guildId, features);
    },
  }),
  defineHook({
    name: 'addGuildResource',
    area: AREA,
    description:
      'A member makes a guild emoji, sticker, soundboard sound or scheduled event; returns its id.',
    args: z.strictObject({
      guildId: idArg,
      user: userArg,
      kind: z.enum(['emoji', 'sticker', 'sound', 'event']),
      name: z.string().min(1).max(100),
    }),
    run: (emulator, args) => emulator.addGuildResource(args),
  }),
  defineHook({
    name: 'postChannelMessage',
    area: AREA,
    description:
      'A chat-app user writes in a guild text channel, optionally with attachments, embeds, a poll, stickers, a voice message or a thread (relayed to a linked lobby).',
    args: z.strictObject({ channelId: idArg, user: userArg, content: z.string().max(2000), ...extrasArgs }),
    run: (emulator, { channelId, user, content, ...extras }) =>
      emulator.postChannelMessage(channelId, user, content, extras),
  }),
  defineHook({
    name: 'channelMessages',
    area: AREA,
    description: "A channel's messages, oldest first.",
    args: z.strictObject({ channelId: idArg }),
    run: (emulator, { channelId }) => emulator.channelMessages(channelId),
  }),
  defineHook({
    name: 'lobbies',
    area: AREA,
    description: 'Every lobby with its members.',
    args: noArgs,
    run: (emulator) => emulator.lobbies(),
  }),
  defineHook({
    name: 'lobbyMessages',
    area: AREA,
    description: 'Every stored message of a lobby, newest first.',
    args: z.strictObject({ lobbyId: idArg }),
    run: (emulator, { lobbyId }) => emulator.lobbyMessages(lobbyId),
  }),
  defineHook({
    name: 'deleteLobbyMessage',
    area: AREA,
    description: 'Deletes a lobby message, as moderation would (LOBBY_MESSAGE_DELETE).',
    args: z.strictObject({ lobbyId: idArg, messageId: idArg }),
    run: (emulator, { lobbyId, messageId }) => {
      emulator.deleteLobbyMessage(lobbyId, messageId);
    },
  }),
];

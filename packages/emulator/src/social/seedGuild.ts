import { MEMBER_PERMISSIONS, Permission } from '../platform/permissions.js';
import type { GuildRecord, UserRecord } from '../store/types.js';
import { ChannelKind, type Guilds } from './Guilds.js';

/** What the application's bot holds in the seeded guild: read, write and manage channels, as a typical game bot. */
export const SEEDED_BOT_PERMISSIONS =
  MEMBER_PERMISSIONS |
  Permission.READ_MESSAGE_HISTORY |
  Permission.EMBED_LINKS |
  Permission.ATTACH_FILES |
  Permission.ADD_REACTIONS |
  Permission.MANAGE_CHANNELS |
  Permission.PIN_MESSAGES;

/** The seeded guild's name (contract). */
export const SEEDED_GUILD_NAME = 'Emulator Guild';

/**
 * The contract's seeded guild: owned by the first user, every other user a member who may view and write
 * (not manage, so only the owner may link its channels). Channels: #welcome at the top level; "Text Channels"
 * with #general, #lfg and #staff (hidden from everyone but the owner); "Voice Channels" with the voice
 * channel "General", where everyone may CONNECT and SPEAK. The application's bot is in it with {@link SEEDED_BOT_PERMISSIONS}, so #staff is a channel it
 * cannot view. Nothing is seeded without users, as the guild needs an owner.
 */
export function seedGuild(
  guilds: Guilds,
  users: readonly UserRecord[],
  bot: UserRecord,
): GuildRecord | undefined {
  const [owner, ...others] = users;
  if (!owner) return undefined;
  const guild = guilds.create({
    name: SEEDED_GUILD_NAME,
    ownerId: owner.id,
    members: others.map((u) => ({ userId: u.id, permissions: MEMBER_PERMISSIONS })),
    channels: [
      { name: 'Text Channels', type: ChannelKind.CATEGORY, position: 0 },
      { name: 'general', parent: 'Text Channels', position: 0 },
      { name: 'lfg', parent: 'Text Channels', position: 1 },
      {
        name: 'staff',
        parent: 'Text Channels',
        position: 2,
        overwrites: [{ id: '@everyone', type: 0, deny: Permission.VIEW_CHANNEL }],
      },
      { name: 'welcome', position: 0 },
      { name: 'Voice Channels', type: ChannelKind.CATEGORY, position: 1 },
      {
        name: 'General',
        type: ChannelKind.VOICE,
        parent: 'Voice Channels',
        position: 0,
        // Open to every member's voice, bot included: the roles hold only what text channels need.
        overwrites: [{ id: '@everyone', type: 0, allow: Permission.CONNECT | Permission.SPEAK }],
      },
    ],
  });
  guilds.addBot(guild.id, bot.id, bot.username, SEEDED_BOT_PERMISSIONS);
  return guild;
}

import type { GuildRecord, UserRecord } from '../store/types.js';
import { ChannelKind, type Guilds } from './Guilds.js';
import { MEMBER_PERMISSIONS, Permission } from './permissions.js';

/** The seeded guild's name (contract). */
export const SEEDED_GUILD_NAME = 'Emulator Guild';

/**
 * The contract's seeded guild: owned by the first user, every other user a member who may view and write
 * (not manage, so only the owner may link its channels). Channels: #welcome at the top level; "Text Channels"
 * with #general, #lfg and #staff (hidden from everyone but the owner); "Voice Channels" with the voice
 * channel "General". Nothing is seeded without users, as the guild needs an owner.
 */
export function seedGuild(guilds: Guilds, users: readonly UserRecord[]): GuildRecord | undefined {
  const [owner, ...others] = users;
  if (!owner) return undefined;
  return guilds.create({
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
      { name: 'General', type: ChannelKind.VOICE, parent: 'Voice Channels', position: 0 },
    ],
  });
}

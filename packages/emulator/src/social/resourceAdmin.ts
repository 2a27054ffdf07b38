import type { EmulatorStore } from '../store/Store.js';
import type { Guilds } from './Guilds.js';

/** The kinds of guild resource a user can make through the admin hook `addGuildResource`. */
export type UserResourceKind = 'emoji' | 'sticker' | 'sound' | 'event';

/** One hour, the default lead of a scheduled event a user makes through the hook. */
const HOUR_MS = 3_600_000;

/**
 * A member makes a guild resource as the chat app would (the admin hook `addGuildResource`), so tests have
 * something the bot did not make: an emoji, a PNG sticker, a soundboard sound, or an external scheduled event
 * starting in an hour. Returns its id; throws a `RangeError` for an unknown guild, a non-member, or a bad name.
 */
export function addUserResource(
  store: EmulatorStore,
  guilds: Guilds,
  input: { guildId: string; userId: string; kind: UserResourceKind; name: string },
): string {
  const { guildId, userId, kind, name } = input;
  if (!guilds.isMember(guildId, userId))
    throw new RangeError(`user ${userId} is not a member of guild ${guildId}`);
  const id = store.nextId();
  const createdAt = store.now();
  const resources = guilds.resources;
  if (kind === 'emoji') {
    if (!/^[A-Za-z0-9_]{2,32}$/.test(name))
      throw new RangeError('an emoji name is 2–32 letters, digits or "_"');
    resources.add(guildId, 'emojis', { id, name, animated: false, userId, roles: [], createdAt });
  } else if (kind === 'sticker') {
    if (name.length < 2 || name.length > 30) throw new RangeError('a sticker name is 2–30 characters');
    resources.add(guildId, 'stickers', {
      id,
      name,
      description: null,
      tags: 'emulator',
      formatType: 1,
      userId,
      createdAt,
    });
  } else if (kind === 'sound') {
    if (name.length < 2 || name.length > 32) throw new RangeError('a sound name is 2–32 characters');
    resources.add(guildId, 'soundboardSounds', {
      id,
      name,
      volume: 1,
      emojiId: null,
      emojiName: null,
      userId,
      createdAt,
    });
  } else {
    if (name.length < 1 || name.length > 100) throw new RangeError('an event name is 1–100 characters');
    resources.add(guildId, 'scheduledEvents', {
      id,
      channelId: null,
      creatorId: userId,
      name,
      description: null,
      startsAt: createdAt + HOUR_MS,
      endsAt: createdAt + 2 * HOUR_MS,
      entityType: 3,
      status: 1,
      location: 'the emulator',
      createdAt,
    });
  }
  return id;
}

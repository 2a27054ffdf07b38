import { createHash } from 'node:crypto';

import { wireUser } from '../accounts/userObject.js';
import { Permission } from '../platform/permissions.js';
import type { EmulatorStore } from '../store/Store.js';

/** Interaction contexts: where an interaction was triggered (the platform's numbers). */
export const InteractionContext = {
  /** A guild channel. */
  GUILD: 0,
  /** The DM with the app's bot user. */
  BOT_DM: 1,
  /** A group DM, or a DM between other users (only a user-installed app reaches those). */
  PRIVATE_CHANNEL: 2,
} as const;

/** Channel types of private channels. */
export const PrivateChannelType = { DM: 1, GROUP_DM: 3 } as const;

/** The document's rule for DMs: what `app_permissions` holds in a DM with other users (or a group DM)… */
export const DM_APP_PERMISSIONS =
  Permission.VIEW_CHANNEL |
  Permission.SEND_MESSAGES |
  Permission.READ_MESSAGE_HISTORY |
  Permission.ATTACH_FILES |
  Permission.EMBED_LINKS |
  Permission.MENTION_EVERYONE;
/** …and in the DM with the app's bot user, which adds USE_EXTERNAL_EMOJIS. */
export const BOT_DM_APP_PERMISSIONS = DM_APP_PERMISSIONS | Permission.USE_EXTERNAL_EMOJIS;

/** A private channel an interaction happens in: the bot DM (context 1), a DM or a group DM (context 2). */
export interface PrivateChannel {
  id: string;
  type: (typeof PrivateChannelType)[keyof typeof PrivateChannelType];
  context: typeof InteractionContext.BOT_DM | typeof InteractionContext.PRIVATE_CHANNEL;
  /** Every user in the channel but the app's bot, the invoking user first. */
  members: string[];
}

/**
 * A stable id for the DM or group DM of `members` (order does not matter): the emulator keeps no such channels
 * (no one writes in them but the app's responses), so the same people always meet in the same channel id.
 */
function channelIdOf(kind: string, members: readonly string[]): string {
  const digest = createHash('sha256')
    .update(`${kind}:${[...members].sort().join(',')}`)
    .digest();
  // 62 bits: a positive snowflake-sized decimal that no counter-made id of the emulator reaches.
  return (digest.readBigUInt64BE(0) >> 2n).toString();
}

/** The DM between the invoking user and the app's bot (its id is stable, derived from the two ids). */
export function botDm(userId: string, botId: string): PrivateChannel {
  return {
    id: (BigInt(userId) ^ BigInt(botId) ^ 1n).toString(),
    type: PrivateChannelType.DM,
    context: InteractionContext.BOT_DM,
    members: [userId],
  };
}

/** The DM between the invoking user and another user. */
export function userDm(userId: string, otherId: string): PrivateChannel {
  return {
    id: channelIdOf('dm', [userId, otherId]),
    type: PrivateChannelType.DM,
    context: InteractionContext.PRIVATE_CHANNEL,
    members: [userId, otherId],
  };
}

/** A group DM of the invoking user and others (2–9 others: a group DM holds at most 10 users). */
export function groupDm(userId: string, others: readonly string[]): PrivateChannel {
  const members = [userId, ...others.filter((id) => id !== userId)];
  return {
    id: channelIdOf('group', members),
    type: PrivateChannelType.GROUP_DM,
    context: InteractionContext.PRIVATE_CHANNEL,
    members: [...new Set(members)],
  };
}

/** `app_permissions` in a private channel: the document's sets. */
export function privateAppPermissions(channel: PrivateChannel): bigint {
  return channel.context === InteractionContext.BOT_DM ? BOT_DM_APP_PERMISSIONS : DM_APP_PERMISSIONS;
}

/**
 * The channel object of an interaction payload in a private channel: its recipients are the other users (the
 * bot DM's is the invoking user, as the bot sees it).
 */
export function wirePrivateChannel(channel: PrivateChannel, store: EmulatorStore): Record<string, unknown> {
  const recipientIds =
    channel.context === InteractionContext.BOT_DM ? channel.members : channel.members.slice(1);
  const recipients = recipientIds.flatMap((id) => {
    const user = store.user(id);
    return user ? [wireUser(user)] : [];
  });
  return {
    id: channel.id,
    type: channel.type,
    recipients,
    ...(channel.type === PrivateChannelType.GROUP_DM
      ? { name: null, icon: null, owner_id: channel.members[0] }
      : {}),
  };
}

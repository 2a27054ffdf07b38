import { wireUser } from '../accounts/userObject.js';
import type { ActivityInstance } from '../activities/ActivityInstances.js';
import type { EmulatorContext } from '../context.js';
import type { UserRecord } from '../store/types.js';

/**
 * A participant as GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS and its update event send it; `nickname` is the
 * player's nickname in the instance's guild, when they have one.
 */
export function wireParticipant(user: UserRecord, nickname?: string | null): Record<string, unknown> {
  const base = wireUser(user);
  return {
    ...(nickname === undefined || nickname === null ? {} : { nickname }),
    id: base.id,
    username: base.username,
    global_name: base.global_name,
    discriminator: base.discriminator,
    avatar: base.avatar,
    flags: base.flags,
    bot: false,
    avatar_decoration_data: null,
  };
}

/** The connected participants of an instance, as the SDK reads them. */
export function participantsOf(ctx: EmulatorContext, instance: ActivityInstance): Record<string, unknown>[] {
  return [...instance.participants.keys()]
    .map((id) => ctx.store.user(id))
    .filter((u): u is UserRecord => u !== undefined)
    .map((u) =>
      wireParticipant(u, instance.guildId === null ? null : ctx.guilds.member(instance.guildId, u.id)?.nick),
    );
}

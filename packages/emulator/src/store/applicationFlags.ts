import { Intent } from '../platform/intents.js';
import type { StoreState } from './types.js';

/** The application flags the emulator can say truthfully of its application (the platform's bits). */
export const ApplicationFlag = {
  /** GUILD_PRESENCES is enabled for a bot in fewer than 100 servers (the portal's toggle). */
  GATEWAY_PRESENCE_LIMITED: 1 << 13,
  /** GUILD_MEMBERS is enabled for a bot in fewer than 100 servers. */
  GATEWAY_GUILD_MEMBERS_LIMITED: 1 << 15,
  /** MESSAGE_CONTENT is enabled for a bot in fewer than 100 servers. */
  GATEWAY_MESSAGE_CONTENT_LIMITED: 1 << 19,
  /** The application has registered global commands. */
  APPLICATION_COMMAND_BADGE: 1 << 23,
} as const;

/**
 * Each privileged intent's flag. The emulator's bot is never verified (that takes 100 servers and a review),
 * so an enabled intent is the `_LIMITED` flag, the one the portal's toggle sets.
 */
const INTENT_FLAGS: readonly (readonly [intent: number, flag: number])[] = [
  [Intent.GUILD_PRESENCES, ApplicationFlag.GATEWAY_PRESENCE_LIMITED],
  [Intent.GUILD_MEMBERS, ApplicationFlag.GATEWAY_GUILD_MEMBERS_LIMITED],
  [Intent.MESSAGE_CONTENT, ApplicationFlag.GATEWAY_MESSAGE_CONTENT_LIMITED],
];

/** The flags an application may change itself with Edit Current Application: the limited intent flags. */
export const EDITABLE_APPLICATION_FLAGS = INTENT_FLAGS.reduce((bits, [, flag]) => bits | flag, 0);

/** The application's flags: its privileged intents, and the command badge once it has a global command. */
export function applicationFlags(state: StoreState): number {
  let flags = 0;
  for (const [intent, flag] of INTENT_FLAGS) {
    if ((state.application.privilegedIntents & intent) !== 0) flags |= flag;
  }
  if (Object.values(state.commands).some((command) => command.guildId === null)) {
    flags |= ApplicationFlag.APPLICATION_COMMAND_BADGE;
  }
  return flags;
}

/** The privileged intents (intent bits) that application flags enable. */
export function privilegedIntentsOf(flags: number): number {
  let intents = 0;
  for (const [intent, flag] of INTENT_FLAGS) if ((flags & flag) !== 0) intents |= intent;
  return intents;
}

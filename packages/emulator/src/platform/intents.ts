/** Gateway intents (Identify's `intents`): which events a bot session receives. The platform's bits. */
export const Intent = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MODERATION: 1 << 2,
  GUILD_EXPRESSIONS: 1 << 3,
  GUILD_INTEGRATIONS: 1 << 4,
  GUILD_WEBHOOKS: 1 << 5,
  GUILD_INVITES: 1 << 6,
  GUILD_VOICE_STATES: 1 << 7,
  GUILD_PRESENCES: 1 << 8,
  GUILD_MESSAGES: 1 << 9,
  GUILD_MESSAGE_REACTIONS: 1 << 10,
  GUILD_MESSAGE_TYPING: 1 << 11,
  DIRECT_MESSAGES: 1 << 12,
  DIRECT_MESSAGE_REACTIONS: 1 << 13,
  DIRECT_MESSAGE_TYPING: 1 << 14,
  MESSAGE_CONTENT: 1 << 15,
  GUILD_SCHEDULED_EVENTS: 1 << 16,
  AUTO_MODERATION_CONFIGURATION: 1 << 20,
  AUTO_MODERATION_EXECUTION: 1 << 21,
  GUILD_MESSAGE_POLLS: 1 << 24,
  DIRECT_MESSAGE_POLLS: 1 << 25,
} as const;

/** The privileged intents: a bot may ask for them only when they are enabled for its application. */
export const PRIVILEGED_INTENTS = Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT;

/** The names the emulator's options and CLI use for the privileged intents. */
export const PRIVILEGED_INTENT_NAMES = {
  members: Intent.GUILD_MEMBERS,
  presences: Intent.GUILD_PRESENCES,
  message_content: Intent.MESSAGE_CONTENT,
} as const;

/** One of {@link PRIVILEGED_INTENT_NAMES}' keys. */
export type PrivilegedIntentName = keyof typeof PRIVILEGED_INTENT_NAMES;

/** Identify `capabilities` bit that turns on private channel obfuscation (the document's temporary switch). */
export const CAPABILITY_CHANNEL_OBFUSCATION = 1 << 15;

/** The bitmask of privileged intents a list of names enables; throws a RangeError for an unknown name. */
export function privilegedIntentBits(names: readonly string[]): number {
  let bits = 0;
  for (const name of names) {
    if (!Object.hasOwn(PRIVILEGED_INTENT_NAMES, name)) {
      throw new RangeError(
        `unknown privileged intent "${name}" (known: ${Object.keys(PRIVILEGED_INTENT_NAMES).join(', ')})`,
      );
    }
    bits |= PRIVILEGED_INTENT_NAMES[name as PrivilegedIntentName];
  }
  return bits;
}

// The platform's permission bits and gateway intents the bot tests use, written out from the document rather
// than imported from the emulator, so a wrong bit in the emulator cannot make its own test agree with it.

export const INVITE = 1n << 0n;
export const KICK = 1n << 1n;
export const BAN = 1n << 2n;
export const MANAGE_CHANNELS = 1n << 4n;
export const MANAGE_GUILD = 1n << 5n;
export const VIEW = 1n << 10n;
export const SEND = 1n << 11n;
export const MANAGE_MESSAGES = 1n << 13n;
export const EMBED_LINKS = 1n << 14n;
export const ATTACH = 1n << 15n;
export const READ_HISTORY = 1n << 16n;
export const MANAGE_NICKNAMES = 1n << 27n;
export const MANAGE_ROLES = 1n << 28n;
export const PIN = 1n << 51n;

export const GUILDS = 1 << 0;
export const GUILD_MEMBERS = 1 << 1;
export const GUILD_MODERATION = 1 << 2;
export const GUILD_MESSAGES = 1 << 9;

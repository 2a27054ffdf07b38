/** Scopes behind `sdk.social_layer_presence` (account linking, friends, rich presence, invites). */
export const PRESENCE_SCOPES: readonly string[] = [
  'activities.invites.write',
  'activities.read',
  'activities.write',
  'application_identities.write',
  'gateway.connect',
  'identify',
  'relationships.read',
  'relationships.write',
];

/** What `sdk.social_layer` adds to the presence set (DMs, lobbies, linked channels). */
export const COMMUNICATION_EXTRA_SCOPES: readonly string[] = [
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'guilds',
  'guilds.channels.read',
  'lobbies.write',
];

/** Human descriptions shown on the consent page, one per scope the emulator accepts. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  openid: 'Sign you in with your account (OpenID Connect)',
  'sdk.social_layer_presence': 'Use the social features of the game: friends, rich presence and invites',
  'sdk.social_layer': 'Use all social features of the game, including messages, lobbies and voice chat',
  'activities.invites.write': 'Send game invites on your behalf',
  'activities.read': 'See what games your friends are playing',
  'activities.write': 'Update what you are playing (rich presence)',
  'application_identities.write': 'Link your game account to your account',
  'gateway.connect': 'Connect to the real-time service as you',
  identify: 'Know your username, display name and avatar',
  'identify.premium': 'Know your subscription tier (partner applications only)',
  'relationships.read': 'See your friends list',
  'relationships.write': 'Send, accept and remove friend requests',
  'dm_channels.read': 'See your direct message channels',
  'dm_channels.messages.read': 'Read direct messages sent from the game',
  'dm_channels.messages.write': 'Send direct messages from the game',
  guilds: 'Know which servers you are in',
  connections: 'See the accounts you connected (third-party services)',
  'guilds.channels.read': 'See the channels of your servers to link them to lobbies',
  'lobbies.write': 'Create, join and chat in game lobbies',
  bot: 'Add a bot to a server',
  'rpc.activities.write': 'Update your activity from an Activity (rich presence)',
  'rpc.voice.read': 'Know who is in your voice channel and who is speaking, from an Activity',
  'guilds.members.read': 'Read your member information (nickname, avatar) in your servers',
  'applications.commands': "Use the application's commands",
};

/** True for a scope the emulator grants. */
export function isKnownScope(scope: string): boolean {
  return Object.hasOwn(SCOPE_DESCRIPTIONS, scope);
}

/** The scopes a bundle scope stands for; an ordinary scope stands for itself alone. */
export function scopeMembers(scope: string): readonly string[] {
  if (scope === 'sdk.social_layer_presence') return PRESENCE_SCOPES;
  if (scope === 'sdk.social_layer') return [...PRESENCE_SCOPES, ...COMMUNICATION_EXTRA_SCOPES];
  return [];
}

/**
 * The full set a grant carries: the requested scopes themselves (so a check for `sdk.social_layer` works)
 * followed by everything the bundles expand to, without duplicates.
 */
export function expandScopes(requested: readonly string[]): string[] {
  const out = new Set<string>();
  for (const scope of requested) out.add(scope);
  for (const scope of requested) for (const member of scopeMembers(scope)) out.add(member);
  return [...out];
}

/** Splits a space-separated scope parameter, dropping empty parts and duplicates, keeping order. */
export function parseScopeParam(value: string): string[] {
  return [...new Set(value.split(' ').filter((s) => s.length > 0))];
}

/*
 * The identities players signed in with from external providers (Steam, Epic Online Services, an OIDC
 * provider, the game's backend…), as READY's `user_application_profiles` carries them: a map from user id to
 * that user's profiles in this application.
 */

/** The external identity provider of a profile, with the C++ SDK's `ExternalIdentityProviderType` values. */
export enum ExternalIdentityProviderType {
  /** An OpenID Connect provider configured for the application. */
  OIDC = 0,
  /** Epic Online Services. */
  EpicOnlineServices = 1,
  /** Steam. */
  Steam = 2,
  /** Unity Authentication. */
  Unity = 3,
  /** The game's backend, with the application's bot token. */
  DiscordBot = 4,
  /** No provider. */
  None = 5,
  /** A provider this SDK version does not know. */
  Unknown = 6,
}

/** A profile from an external identity provider: who the player is in the game's own identity system. */
export interface UserApplicationProfile {
  /** The in-game avatar hash, or `''`. */
  readonly avatarHash: string;
  /** Metadata the developer set, or `''`. */
  readonly metadata: string;
  /** The provider's id (an OIDC issuer, the application id for the game's backend), or null when it has none. */
  readonly providerId: string | null;
  /** The user's id at the provider (an OIDC `sub`, a Steam id, the game's own account id…). */
  readonly providerIssuedUserId: string;
  /** Which kind of provider. */
  readonly providerType: ExternalIdentityProviderType;
  /** The in-game username, or `''`. */
  readonly username: string;
}

const PROVIDER_TYPES: Readonly<Record<string, ExternalIdentityProviderType>> = {
  OIDC: ExternalIdentityProviderType.OIDC,
  EPIC_ONLINE_SERVICES: ExternalIdentityProviderType.EpicOnlineServices,
  STEAM: ExternalIdentityProviderType.Steam,
  UNITY: ExternalIdentityProviderType.Unity,
  DISCORD_BOT: ExternalIdentityProviderType.DiscordBot,
  NONE: ExternalIdentityProviderType.None,
};

/** Bounds on what one READY may make the client keep: a hostile or broken server cannot grow it without end. */
const MAX_USERS = 10_000;
const MAX_PROFILES_PER_USER = 16;
const MAX_FIELD_LENGTH = 4096;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_FIELD_LENGTH ? value : undefined;
}

/** One wire profile, or undefined when it lacks the provider-issued user id. */
function profileFromWire(wire: unknown): UserApplicationProfile | undefined {
  if (wire === null || typeof wire !== 'object') return undefined;
  const w = wire as Record<string, unknown>;
  const providerIssuedUserId = text(w.provider_issued_user_id);
  if (!providerIssuedUserId) return undefined;
  const type = typeof w.provider_type === 'string' ? w.provider_type : '';
  return Object.freeze({
    avatarHash: text(w.avatar_hash) ?? '',
    metadata: text(w.metadata) ?? '',
    providerId: text(w.provider_id) ?? null,
    providerIssuedUserId,
    providerType: Object.hasOwn(PROVIDER_TYPES, type)
      ? (PROVIDER_TYPES[type] ?? ExternalIdentityProviderType.Unknown)
      : ExternalIdentityProviderType.Unknown,
    username: text(w.username) ?? '',
  });
}

/**
 * READY's `user_application_profiles` (user id → profiles) as a map; malformed entries are skipped, and at
 * most {@link MAX_USERS} users with {@link MAX_PROFILES_PER_USER} profiles each are kept.
 */
export function applicationProfilesFromWire(wire: unknown): Map<string, readonly UserApplicationProfile[]> {
  const out = new Map<string, readonly UserApplicationProfile[]>();
  if (wire === null || typeof wire !== 'object' || Array.isArray(wire)) return out;
  for (const [userId, list] of Object.entries(wire as Record<string, unknown>)) {
    if (out.size >= MAX_USERS) break;
    if (!/^[0-9]{1,20}$/.test(userId) || !Array.isArray(list)) continue;
    const profiles = list
      .slice(0, MAX_PROFILES_PER_USER)
      .map(profileFromWire)
      .filter((p): p is UserApplicationProfile => p !== undefined);
    if (profiles.length > 0) out.set(userId, Object.freeze(profiles));
  }
  return out;
}

import type { IdentityProvider, IdentityRecord, StoreState } from '../store/types.js';

/** A profile as READY's `user_application_profiles` carries it (one per identity linked to the user). */
export interface WireApplicationProfile {
  provider_type: string;
  provider_id: string | null;
  provider_issued_user_id: string;
  username: string;
  avatar_hash: string;
  metadata: string;
}

// The SDK's ExternalIdentityProviderType names the provider, not the kind of token it issued: both Epic
// tokens are one provider. Providers newer than that enum (Apple, PlayStation Network) go by their own names,
// which an SDK that does not know them reads as Unknown.
const PROVIDER_TYPES: Readonly<Record<IdentityProvider, string>> = {
  OIDC: 'OIDC',
  EPIC_ONLINE_SERVICES_ACCESS_TOKEN: 'EPIC_ONLINE_SERVICES',
  EPIC_ONLINE_SERVICES_ID_TOKEN: 'EPIC_ONLINE_SERVICES',
  STEAM_SESSION_TICKET: 'STEAM',
  UNITY_SERVICES_ID_TOKEN: 'UNITY',
  APPLE_ID_TOKEN: 'APPLE',
  PLAYSTATION_NETWORK_ID_TOKEN: 'PLAYSTATION_NETWORK',
  DISCORD_BOT: 'DISCORD_BOT',
};

function wireProfile(identity: IdentityRecord, applicationId: string): WireApplicationProfile {
  return {
    provider_type: PROVIDER_TYPES[identity.provider],
    // The issuer names an OIDC provider; the game's backend is the application itself; the fixed providers
    // (Steam, Epic…) need no id.
    provider_id: identity.provider === 'DISCORD_BOT' ? applicationId : identity.issuer,
    provider_issued_user_id: identity.subject,
    username: identity.displayName ?? '',
    // The emulator keeps no in-game avatars or developer metadata for identities.
    avatar_hash: '',
    metadata: '',
  };
}

/**
 * READY's `user_application_profiles`: user id → the profiles of the identities linked to that user, for
 * each of `userIds` that has any (the signed-in user and the users in their friends list).
 */
export function applicationProfilesFor(
  state: StoreState,
  userIds: ReadonlySet<string>,
): Record<string, WireApplicationProfile[]> {
  const out: Record<string, WireApplicationProfile[]> = {};
  for (const identity of Object.values(state.identities)) {
    if (!userIds.has(identity.userId)) continue;
    (out[identity.userId] ??= []).push(wireProfile(identity, state.application.id));
  }
  return out;
}

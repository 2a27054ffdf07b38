/** `openid sdk.social_layer`: every SDK feature, communications included (DMs, lobbies, voice, linked channels). */
export const DEFAULT_COMMUNICATION_SCOPES = 'openid sdk.social_layer';
/** `openid sdk.social_layer_presence`: account linking, provisional accounts, friends, rich presence, invites. */
export const DEFAULT_PRESENCE_SCOPES = 'openid sdk.social_layer_presence';

/** The scopes for the full SDK, communications included. */
export function getDefaultCommunicationScopes(): string {
  return DEFAULT_COMMUNICATION_SCOPES;
}

/** The scopes for presence-level features only. */
export function getDefaultPresenceScopes(): string {
  return DEFAULT_PRESENCE_SCOPES;
}

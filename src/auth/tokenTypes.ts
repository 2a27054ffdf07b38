/** The kind of token the SDK holds. Only OAuth2 bearer tokens can be used. */
export enum AuthorizationTokenType {
  /** A desktop-client user token; not accepted by the SDK. */
  User = 0,
  /** An OAuth2 bearer token, from account linking or a provisional account. */
  Bearer = 1,
}

/** Identity providers that can back a provisional account, with the C++ SDK's values. */
export enum AuthenticationExternalAuthType {
  OIDC = 0,
  EpicOnlineServicesAccessToken = 1,
  EpicOnlineServicesIdToken = 2,
  SteamSessionTicket = 3,
  UnityServicesIdToken = 4,
  DiscordBotIssuedAccessToken = 5,
  AppleIdToken = 6,
  PlayStationNetworkIdToken = 7,
}

const WIRE_NAMES: Record<AuthenticationExternalAuthType, string> = {
  [AuthenticationExternalAuthType.OIDC]: 'OIDC',
  [AuthenticationExternalAuthType.EpicOnlineServicesAccessToken]: 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  [AuthenticationExternalAuthType.EpicOnlineServicesIdToken]: 'EPIC_ONLINE_SERVICES_ID_TOKEN',
  [AuthenticationExternalAuthType.SteamSessionTicket]: 'STEAM_SESSION_TICKET',
  [AuthenticationExternalAuthType.UnityServicesIdToken]: 'UNITY_SERVICES_ID_TOKEN',
  [AuthenticationExternalAuthType.DiscordBotIssuedAccessToken]: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
  [AuthenticationExternalAuthType.AppleIdToken]: 'APPLE_ID_TOKEN',
  [AuthenticationExternalAuthType.PlayStationNetworkIdToken]: 'PLAYSTATION_NETWORK_ID_TOKEN',
};

/** The wire name of an external auth type, e.g. `STEAM_SESSION_TICKET`; undefined for an unknown value. */
export function externalAuthTypeWireName(type: AuthenticationExternalAuthType): string | undefined {
  return WIRE_NAMES[type];
}

/** Tokens from an exchange, refresh or provisional-account call. */
export interface TokenExchangeResult {
  /** The bearer token to pass to {@link Client.updateToken}. Secret. */
  accessToken: string;
  /** The refresh token, or `''` where none is issued (provisional accounts). Secret. */
  refreshToken: string;
  /** Always {@link AuthorizationTokenType.Bearer}. */
  tokenType: AuthorizationTokenType;
  /** Seconds until the access token expires. */
  expiresIn: number;
  /** The granted scopes, space separated. */
  scopes: string;
  /** The OpenID Connect ID token, when `openid` was granted. */
  idToken?: string;
}

/** The kind of token the SDK holds. Only OAuth2 bearer tokens can be used. */
export enum AuthorizationTokenType {
  /** A desktop-client user token; not accepted by the SDK. */
  User = 0,
  /** An OAuth2 bearer token, from account linking or a provisional account. */
  Bearer = 1,
}

/** Identity providers that can back a provisional account, with the C++ SDK's values. */
export enum AuthenticationExternalAuthType {
  /** An ID token from an OpenID Connect provider configured for the application. */
  OIDC = 0,
  /** An Epic Online Services (EOS Connect) access token. */
  EpicOnlineServicesAccessToken = 1,
  /** An Epic Online Services ID token. */
  EpicOnlineServicesIdToken = 2,
  /** A Steam session ticket for the game's Steam app. */
  SteamSessionTicket = 3,
  /** A Unity Authentication ID token. */
  UnityServicesIdToken = 4,
  /**
   * For provisional accounts the game's backend created with its bot token; the external token is the
   * provisional access token.
   */
  DiscordBotIssuedAccessToken = 5,
  /** A Sign in with Apple ID token. */
  AppleIdToken = 6,
  /** A PlayStation Network ID token. */
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

/**
 * A child application's token from {@link Client.exchangeChildToken} (publisher-level linking). There is no
 * refresh token: when it nears expiry, exchange a fresh parent token again.
 */
export interface ChildTokenResult {
  /** The child application's bearer token, to pass to {@link Client.updateToken}. Secret. */
  accessToken: string;
  /** Always {@link AuthorizationTokenType.Bearer}. */
  tokenType: AuthorizationTokenType;
  /** Seconds until the token expires; never later than the parent token. */
  expiresIn: number;
  /** The granted scopes, space separated: the parent token's, narrowed to what the child application accepts. */
  scopes: string;
}

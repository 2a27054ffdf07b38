import { AuthorizationTokenType, type Client } from 'sdkpp';

/**
 * Links the player's account and connects: PKCE verifier → consent in the browser → code → token →
 * `updateToken` → `connect` (resolves at Ready). The verifier and the tokens live only in this function and
 * the client, in the main process: the renderer never sees them.
 */
export async function signIn(client: Client): Promise<void> {
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
}

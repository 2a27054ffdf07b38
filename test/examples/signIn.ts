import { AuthorizationTokenType, Client, type ClientOptions } from 'sdkpp';
import type { Emulator } from '@sdkpp/emulator';

/** Client options for `username` on `emulator`: its consent page opens as that user; no desktop client. */
export function clientOptionsAs(emulator: Emulator, username: string): ClientOptions {
  return {
    apiBase: emulator.api,
    webBase: emulator.http,
    applicationId: emulator.applicationId,
    openUrl: emulator.browserAs(username),
    localClient: false,
  };
}

/** Another player's game next to a sample: signed in through the emulator's consent page, and Ready. */
export async function signedInClient(emulator: Emulator, username: string): Promise<Client> {
  const client = new Client(clientOptionsAs(emulator, username));
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  return client;
}

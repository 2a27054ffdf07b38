import { AuthorizationTokenType, Client, statusToString } from 'sdkpp';
import type { Emulator, EmulatorUser } from 'sdkpp/emulator';

import { humanSeconds, say } from './print.js';

/**
 * The account-linking flow of the C++ SDK's getting-started guide, step for step:
 * CreateAuthorizationCodeVerifier → Authorize → GetToken → UpdateToken → Connect → Ready.
 * The emulator's `browserAs` plays the player clicking "Authorize" on the consent page.
 */
export async function linkAndConnect(emulator: Emulator, player: EmulatorUser): Promise<Client> {
  const who = player.username;
  const client = new Client({
    apiBase: emulator.api,
    webBase: emulator.http,
    applicationId: emulator.applicationId,
    openUrl: emulator.browserAs(player.username),
  });
  client.on('statusChanged', (status) => {
    say(who, `status → ${statusToString(status)}`);
  });

  const pkce = client.createAuthorizationCodeVerifier();
  say(who, 'opening the consent page (OAuth2 + PKCE S256)');
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  say(who, `authorized: the code arrived at ${redirectUri}`);

  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  say(who, `token exchanged: scopes "${tokens.scopes}", valid for ${humanSeconds(tokens.expiresIn)}`);

  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  const me = client.getCurrentUser();
  say(who, `Ready: signed in as ${me?.displayName ?? '?'} (@${me?.username ?? '?'}, id ${me?.id ?? '?'})`);
  return client;
}

import { AuthorizationTokenType, Client, statusToString, type ClientOptions } from 'sdkpp';
import type { Emulator, EmulatorUser } from '@sdkpp/emulator';

import { humanSeconds, say } from './print.js';

/**
 * The game starting up for a player: a client pointed at the emulator. `desktopClient` makes it find the
 * emulated desktop client (a real game would find a real one by itself); otherwise it uses the browser.
 */
export function startGame(emulator: Emulator, player: EmulatorUser, desktopClient = false): Client {
  const options: ClientOptions = {
    apiBase: emulator.api,
    webBase: emulator.http,
    applicationId: emulator.applicationId,
    openUrl: emulator.browserAs(player.username),
    localClient:
      desktopClient && emulator.rpcSocket ? { socketPaths: () => [emulator.rpcSocket ?? ''] } : false,
  };
  const client = new Client(options);
  client.on('statusChanged', (status) => {
    say(player.username, `status → ${statusToString(status)}`);
  });
  return client;
}

/**
 * The account-linking flow of the C++ SDK's getting-started guide, step for step:
 * CreateAuthorizationCodeVerifier → Authorize → GetToken → UpdateToken → Connect → Ready.
 * With a desktop client running, the player approves there; otherwise the emulator's `browserAs` plays the
 * player clicking "Authorize" on the consent page.
 */
export async function linkAndConnect(client: Client, player: EmulatorUser): Promise<Client> {
  const who = player.username;

  const pkce = client.createAuthorizationCodeVerifier();
  say(who, 'authorizing (OAuth2 + PKCE S256)');
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  say(
    who,
    redirectUri === ''
      ? 'authorized in the desktop client (RPC AUTHORIZE, no browser)'
      : `authorized on the consent page: the code arrived at ${redirectUri}`,
  );

  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  say(who, `token exchanged: scopes "${tokens.scopes}", valid for ${humanSeconds(tokens.expiresIn)}`);

  await client.updateToken(AuthorizationTokenType.Bearer, tokens.accessToken);
  await client.connect();
  const me = client.getCurrentUser();
  say(who, `Ready: signed in as ${me?.displayName ?? '?'} (@${me?.username ?? '?'}, id ${me?.id ?? '?'})`);
  return client;
}

import { ActivityTypes, Client } from 'sdkpp';
import type { Emulator } from '@sdkpp/emulator';

import { signIn } from './signIn.js';

/** The lobby secret the companion waits in; the UI suggests it. */
export const COMPANION_LOBBY_SECRET = 'tavern';

/**
 * In the embedded world, bob plays along so the window has someone to talk to: he signs in, shows a rich
 * presence, sends the player a friend request, waits in the `tavern` lobby, and answers each direct or lobby
 * message once. A real game has real friends instead; this is a second SDK client in the same process.
 */
export async function startCompanion(
  emulator: Emulator,
  player: string,
  log: (line: string) => void,
): Promise<{ close(): Promise<void> }> {
  const bob = new Client({
    apiBase: emulator.api,
    webBase: emulator.http,
    applicationId: emulator.applicationId,
    openUrl: emulator.browserAs('bob'),
    localClient: false,
  });
  await signIn(bob);
  const bobId = bob.getCurrentUser()?.id ?? '';
  await bob.updateRichPresence({ type: ActivityTypes.Playing, details: 'Waiting in the tavern' });
  await bob.createOrJoinLobby(COMPANION_LOBBY_SECRET);
  await bob.sendDiscordFriendRequest(player);
  bob.on('messageCreated', (messageId) => {
    const message = bob.getMessageHandle(messageId);
    if (!message || message.authorId === bobId) return;
    const reply = `Bob heard: "${message.content.slice(0, 200)}"`;
    const sent = message.lobbyId
      ? bob.sendLobbyMessage(message.lobbyId, reply)
      : bob.sendUserMessage(message.authorId, reply);
    sent.catch((error: unknown) => {
      log(`companion could not answer: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  log(
    `companion bob is online, sent ${player} a friend request, and waits in lobby "${COMPANION_LOBBY_SECRET}"`,
  );
  return { close: () => bob.destroy() };
}

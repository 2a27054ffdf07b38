import { GameBackend } from 'sdkpp/backend';

import { say } from './print.js';
import { connectWithToken, type Server } from './provisional.js';

/**
 * Publisher-level linking, the confidential client's way: the publisher's server holds the parent
 * application's client secret and exchanges a player's parent token for a token of one of the publisher's
 * games (a child application), server to server; the child game connects with it as the same player.
 */
export async function linkChildGame(
  server: Server,
  clientSecret: string,
  child: { id: string; name: string },
  player: { name: string; parentAccessToken: string },
): Promise<void> {
  const publisher = new GameBackend({
    applicationId: server.applicationId,
    clientSecret,
    apiBase: server.api,
  });
  try {
    const token = await publisher.exchangeChildToken(player.parentAccessToken, child.id);
    say(
      'backend',
      `child token of ${child.name} (application ${child.id}) for ${player.name}: scope "${token.scopes}", valid ${Math.round(token.expiresIn / 86_400)} days, no refresh token`,
    );
    const game = await connectWithToken({ ...server, applicationId: child.id }, token.accessToken);
    try {
      say(
        player.name,
        `${child.name}: updateToken(Bearer, child token), connect() → Ready as ${game.getCurrentUser()?.displayName ?? '?'} (id ${game.getCurrentUser()?.id ?? '?'})`,
      );
    } finally {
      await game.destroy();
    }
  } finally {
    await publisher.close();
  }
}

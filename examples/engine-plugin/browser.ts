import { openInSystemBrowser } from 'sdkpp';

import { say } from './print.js';

/**
 * The player's browser, for an emulator running in another terminal. Started with `--auto-consent`, the
 * emulator answers the authorize request at once (as the `login_hint` user) with a redirect to the SDK's
 * loopback listener, which this follows; otherwise the consent page opens in the system browser for the
 * player to approve by hand.
 */
export function consentAs(player: string): (authorizeUrl: string) => Promise<void> {
  return async (authorizeUrl) => {
    const url = new URL(authorizeUrl);
    url.searchParams.set('login_hint', player);
    const answer = await fetch(url, { redirect: 'manual' });
    await answer.arrayBuffer();
    const location = answer.headers.get('location');
    if (answer.status === 302 && location !== null && isLoopback(location)) {
      const delivered = await fetch(location, { redirect: 'manual' });
      await delivered.arrayBuffer();
      return;
    }
    say('social', 'the emulator shows its consent page: approve the game in the browser that opened');
    await openInSystemBrowser(url.toString());
  };
}

/** Only the SDK's own listener on this machine is followed, never a redirect elsewhere. */
function isLoopback(location: string): boolean {
  const { protocol, hostname } = new URL(location);
  return (
    protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]')
  );
}

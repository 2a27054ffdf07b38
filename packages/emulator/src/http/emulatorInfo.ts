import type { EmulatorContext } from '../context.js';
import type { EmulatorPublicInfo } from '../types.js';
import { jsonReply, redirectReply } from './replies.js';
import type { Route } from './router.js';

/**
 * `GET /` (a redirect to the dashboard) and `GET /emulator.json` (no auth, emulator-only): what a game process started in another terminal needs to
 * find its way in — the addresses, the application id and public key, the test users' names. Nothing secret:
 * no bot token, no client secret, no tokens, so it is as public as the consent page. The public key is public
 * by design (a receiver checks signatures with it); the client secret stays out, since anything on this
 * machine, a browser page included, may read this endpoint.
 */
export function emulatorInfoRoutes(ctx: EmulatorContext): Route[] {
  return [
    // The origin itself is what people open in a browser after starting the emulator: show them something.
    {
      method: 'GET',
      scope: 'root',
      pattern: '/',
      style: 'html',
      handle: () => redirectReply('/dashboard'),
    },
    {
      method: 'GET',
      scope: 'root',
      pattern: '/emulator.json',
      style: 'api',
      handle: () => {
        // The shape emulatorInfoAt() reads in another process.
        const info: EmulatorPublicInfo = {
          http: ctx.urls.http,
          api: ctx.urls.api,
          gateway: ctx.urls.gateway,
          dashboard: `${ctx.urls.http}/dashboard`,
          applicationId: ctx.store.state.application.id,
          applicationPublicKey: ctx.webhooks.publicKeyHex,
          autoConsent: ctx.options.autoConsent,
          users: ctx.store.fullUsers().map((user) => ({ id: user.id, username: user.username })),
        };
        return jsonReply(200, info);
      },
    },
  ];
}

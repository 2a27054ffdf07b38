import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { DiscordSDK } from '@discord/embedded-app-sdk';
import type { Frame, Page } from 'playwright-core';
import { afterEach } from 'vitest';

/**
 * What the probe page puts on its window, for `frame.evaluate` callbacks to read as
 * `globalThis as unknown as ProbeWindow` (they run in the page, so they can name types only).
 */
export interface ProbeWindow {
  sdk: DiscordSDK;
  sdkModule: typeof import('@discord/embedded-app-sdk');
  sdkReady?: boolean;
}

/** The Embedded App SDK's ESM build, served to the page as it is in the npm package. */
const SDK = path.dirname(createRequire(import.meta.url).resolve('@discord/embedded-app-sdk'));

/** The probe's script: the real SDK, on `window` for the test to drive, ready once READY came. */
function probeScript(clientId: string): string {
  return `import * as sdkModule from '/sdk/index.mjs';
window.sdkModule = sdkModule;
window.sdk = new sdkModule.DiscordSDK(${JSON.stringify(clientId)});
window.sdk.ready().then(() => { window.sdkReady = true; });
`;
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>probe</title>
<script type="module" src="/probe.js"></script></head><body><p id="probe">probe</p></body></html>`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A game page that is nothing but the real Embedded App SDK (`window.sdk`, the module as `window.sdkModule`),
 * for tests that drive commands and events from the frame: the root URL mapping points at it. `/hello`
 * answers JSON naming this server. Closed after each test.
 */
export function sdkProbes(): (clientId: string) => Promise<{ url: string }> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(closeServer));
  });
  return async (clientId) => {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://probe');
      if (url.pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      } else if (url.pathname === '/probe.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(probeScript(clientId));
      } else if (url.pathname === '/hello') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"probe"}');
      } else if (url.pathname.startsWith('/sdk/')) {
        const file = path.join(SDK, path.posix.normalize(url.pathname.slice('/sdk/'.length)));
        if (!file.startsWith(SDK) || !existsSync(file)) res.writeHead(404).end();
        else {
          res.writeHead(200, { 'content-type': 'text/javascript' });
          createReadStream(file).pipe(res);
        }
      } else res.writeHead(404).end();
    });
    servers.push(server);
    return { url: await listen(server) };
  };
}

/**
 * An API on another origin (as a game's third-party service would be): `GET /hello` answers JSON naming it, to
 * any origin (CORS), so only the frame's Content Security Policy can stop a page reaching it. Closed after each
 * test.
 */
export function externalApis(): () => Promise<{ url: string; host: string }> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(closeServer));
  });
  return async () => {
    const server = createServer((req, res) => {
      res
        .writeHead(req.url?.startsWith('/hello') ? 200 : 404, {
          'content-type': 'application/json',
          'access-control-allow-origin': '*',
        })
        .end('{"from":"external"}');
    });
    servers.push(server);
    const url = await listen(server);
    return { url, host: new URL(url).host };
  };
}

/** The game's frame of a host page, once the SDK in it is ready. */
export async function probeFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const frame = page.frames().find((f) => f !== page.mainFrame());
    if (
      frame &&
      (await frame
        .evaluate(() => (globalThis as unknown as ProbeWindow).sdkReady === true)
        .catch(() => false))
    )
      return frame;
    if (Date.now() > deadline) throw new Error('the probe frame never got READY');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Signs the probe's player in as a game does: AUTHORIZE with `scopes` (approved at once: start the emulator with
 * `autoConsent`), the code exchanged with the client secret here (the game's server's part), then AUTHENTICATE in
 * the frame. Returns the reply's granted scopes.
 */
export async function signInProbe(
  frame: Frame,
  api: string,
  client: { id: string; secret: string },
  scopes: string[],
): Promise<string[]> {
  const { code } = await frame.evaluate(
    ({ id, scope }) =>
      (globalThis as unknown as ProbeWindow).sdk.commands.authorize({
        client_id: id,
        response_type: 'code',
        state: '',
        prompt: 'none',
        scope: scope as never,
      }),
    { id: client.id, scope: scopes },
  );
  const answer = await fetch(`${api}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: client.id,
      client_secret: client.secret,
      code,
    }),
  });
  const { access_token: accessToken } = (await answer.json()) as { access_token: string };
  const reply = await frame.evaluate(
    (token) => (globalThis as unknown as ProbeWindow).sdk.commands.authenticate({ access_token: token }),
    accessToken,
  );
  return reply.scopes.map(String);
}

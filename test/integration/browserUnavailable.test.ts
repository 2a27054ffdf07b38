/**
 * A machine where no browser can be opened: the default opener's launcher (xdg-open, open, rundll32) is not
 * on PATH, as on a headless server, so spawning it really fails with ENOENT. authorize() must reject with a
 * BrowserUnavailableError whose message gives the address to open by hand, while no log line carries that
 * address or its state (the file's log lines are scanned for the state). A game whose opener shows that
 * message instead of failing keeps the sign-in waiting, and the address, opened in a browser, completes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  AuthorizationError,
  BrowserUnavailableError,
  openInSystemBrowser,
} from '../../packages/sdkpp/src/index.js';
import { allLogLines, allSecrets, clientFor, emulatorFor } from './helpers.js';

let savedPath: string | undefined;
let emptyDir = '';

beforeEach(() => {
  // An empty directory as the whole PATH: no launcher can be found, as on a machine without xdg-utils.
  savedPath = process.env.PATH;
  emptyDir = mkdtempSync(path.join(tmpdir(), 'sdkpp-no-browser-'));
  process.env.PATH = emptyDir;
});

afterEach(() => {
  process.env.PATH = savedPath;
  rmSync(emptyDir, { recursive: true, force: true });
});

describe('no browser can be opened', () => {
  it('openInSystemBrowser rejects with a BrowserUnavailableError naming the address', async () => {
    const url = 'http://127.0.0.1:9/oauth2/authorize?client_id=1';
    const error = await openInSystemBrowser(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserUnavailableError);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ url, code: 'browser-unavailable' });
    expect((error as Error).message).toMatch(/ENOENT/);
    expect((error as Error).message.endsWith(`open this address in a browser: ${url}`)).toBe(true);
  });

  it('authorize() rejects with it, the address in its message and in no log line, and leaves nothing pending', async () => {
    const emulator = await emulatorFor();
    const client = clientFor(emulator); // no openUrl: the system browser, which cannot start
    const pkce = client.createAuthorizationCodeVerifier();
    allSecrets.add(pkce.verifier);
    const error = await client.authorize({ codeChallenge: pkce.challenge }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserUnavailableError);
    const { url, message } = error as BrowserUnavailableError;
    expect(message.endsWith(`open this address in a browser: ${url}`)).toBe(true);

    const address = new URL(url);
    expect(`${address.origin}${address.pathname}`).toBe(`${emulator.http}/oauth2/authorize`);
    expect(address.searchParams.get('client_id')).toBe(emulator.applicationId);
    expect(address.searchParams.get('code_challenge')).toBe(pkce.challenge.challenge);
    const state = address.searchParams.get('state') ?? '';
    expect(state.length).toBeGreaterThan(20);
    allSecrets.add(state);
    expect(allLogLines.some((line) => line.includes('no browser could be opened'))).toBe(true);
    expect(allLogLines.some((line) => line.includes(url))).toBe(false);

    // The failed attempt left nothing pending: a second one fails the same way, not as "already in progress".
    await expect(client.authorize({ codeChallenge: pkce.challenge })).rejects.toBeInstanceOf(
      BrowserUnavailableError,
    );
  });

  it('an opener that shows the message instead keeps authorize() waiting, and the address opened by hand signs in', async () => {
    const emulator = await emulatorFor();
    const byHand = emulator.browserAs('bob'); // the player, opening the address in a browser elsewhere
    const shown: string[] = [];
    const client = clientFor(emulator, {
      openUrl: (url) =>
        openInSystemBrowser(url).catch((error: unknown) => {
          if (!(error instanceof BrowserUnavailableError)) throw error;
          shown.push(error.message); // the game shows it; the player opens the address
          setTimeout(() => void byHand(error.url), 50);
        }),
    });
    const pkce = client.createAuthorizationCodeVerifier();
    allSecrets.add(pkce.verifier);
    const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
    allSecrets.add(code);
    const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
    allSecrets.add(tokens.accessToken);
    allSecrets.add(tokens.refreshToken);
    expect((await client.fetchCurrentUser(tokens.accessToken)).username).toBe('bob');
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(
      /open this address in a browser: http:\/\/127\.0\.0\.1:\d+\/oauth2\/authorize\?/,
    );
    allSecrets.add(new URL(shown[0]?.split(': ').at(-1) ?? '').searchParams.get('state') ?? '');
  });
});

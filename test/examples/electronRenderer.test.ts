/**
 * The Electron sample's renderer and preload in a real browser: headless Chromium from an npm package (driven by playwright-core)
 * loads the built page with its CSP header, the built preload runs against a stand-in for the two Electron
 * objects it touches (`contextBridge`, `ipcRenderer`), and its invokes reach the real bridge through the IPC
 * seam, with a real emulator and a second real SDK client on the other side. The player clicks and types; the
 * test reads the DOM.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { ActivityTypes, Client } from 'sdkpp';
import {
  matchAudio,
  readWavFile,
  startEmulator,
  synthesizeSpeech,
  writeWavFile,
  type Emulator,
  type SpeechAudio,
} from '@sdkpp/emulator';

import {
  APP_ENTRY,
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  isAppUrl,
  resolveAppFile,
} from '../../examples/electron/src/main/appProtocol.js';
import { createSdkppBridge, type SdkppBridge } from '../../examples/electron/src/main/bridge.js';
import type { BridgeResult, SdkppApi } from '../../examples/electron/src/shared/api.js';
import { IpcMainSeam } from './electronIpcSeam.js';
import { clientOptionsAs, signedInClient } from './signIn.js';

/** Headless Chromium from the `@sparticuz/chromium` devDependency, unpacked by test/setup/chromium.ts. */
const CHROMIUM = inject('chromiumPath');
const root = resolve(import.meta.dirname, '../..');
const SCREENSHOT = join(root, 'test-artifacts', 'electron-renderer.png');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

interface PageGlobals {
  sdkpp: SdkppApi;
  __electronSend(channel: string, payload: unknown): void;
}

let out: string;
let server: Server;
let address: string;
let emulator: Emulator;
let browser: Browser;
let page: Page;
let bridge: SdkppBridge;
let bob: Client;
let aliceId: string;
let speech: SpeechAudio;
const problems: string[] = [];

/**
 * Stands in for the preload's `require('electron')` and runs the built preload.cjs: `exposeInMainWorld`
 * defines the global, `invoke` goes to Node through a playwright binding, and `__electronSend` is what
 * `webContents.send` delivers to `ipcRenderer.on` listeners (with a stand-in event object, as Electron passes).
 */
function preloadHarness(preload: string): string {
  return `(() => {
  const listeners = new Map();
  const electron = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        Object.defineProperty(window, key, { value: Object.freeze(api), enumerable: true });
      },
    },
    ipcRenderer: {
      invoke: (channel, ...args) => window.__electronInvoke(channel, ...args),
      on(channel, listener) {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel).add(listener);
      },
      removeListener(channel, listener) {
        listeners.get(channel)?.delete(listener);
      },
    },
  };
  window.__electronSend = (channel, payload) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'webContents' }, payload);
  };
  const require = (name) => {
    if (name !== 'electron') throw new Error('a sandboxed preload cannot require ' + name);
    return electron;
  };
  const module = { exports: {} };
  (function (require, module, exports) {
${preload}
  })(require, module, module.exports);
})();`;
}

function build(into: string): Promise<void> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [join(root, 'examples/electron/build.mjs'), '--out', into],
      (error, _o, stderr) => {
        if (error) fail(new Error(`build failed: ${stderr}`));
        else done();
      },
    );
  });
}

/** Serves the build as the app's scheme does (same files, same headers), over loopback http. */
function serve(dir: string): Promise<string> {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = resolveAppFile(`${APP_ORIGIN}${path}`, dir);
    if (!file) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
    });
    response.end(readFileSync(file));
  });
  return new Promise((done) => {
    server.listen(0, '127.0.0.1', () => {
      const info = server.address();
      done(typeof info === 'object' && info ? `http://127.0.0.1:${info.port}` : '');
    });
  });
}

/** Resolves with the content of the next message bob receives from alice. */
function bobReceives(where: (lobbyId: string | null) => boolean): Promise<string> {
  return new Promise((done) => {
    const listener = (id: string): void => {
      const message = bob.getMessageHandle(id);
      if (message?.authorId !== aliceId || !where(message.lobbyId)) return;
      bob.off('messageCreated', listener);
      done(message.content);
    };
    bob.on('messageCreated', listener);
  });
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'sdkpp-electron-renderer-'));
  await build(out);
  address = await serve(out);
  emulator = await startEmulator({ users: 2, autoConsent: true, rpc: false });
  aliceId = emulator.users[0]?.id ?? '';
  bob = await signedInClient(emulator, 'bob');

  const ipc = new IpcMainSeam();
  let pageReady = false;
  bridge = createSdkppBridge({
    ipcMain: ipc,
    send: (channel, event) => {
      if (!pageReady) return; // the page asks for the state when it loads
      page
        .evaluate(([c, e]) => (globalThis as unknown as PageGlobals).__electronSend(c, e), [
          channel,
          event,
        ] as const)
        .catch((error: unknown) => problems.push(`push failed: ${String(error)}`));
    },
    client: clientOptionsAs(emulator, 'alice'),
    isTrustedSender: (event) => isAppUrl(event.senderFrame?.url),
  });

  // The page's microphone: Chromium's fake capture device plays a spoken sentence (looped).
  speech = await synthesizeSpeech('The castle gate is open, bring the torch and the map.');
  const said = join(out, 'alice-says.wav');
  writeWavFile(said, speech.pcm);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${said}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1300, height: 800 }, permissions: ['microphone'] });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Electron asks for no favicon; a browser does, and this server has none.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  // In Electron the page is sdkpp-app://app/index.html; here it is served over loopback, so the invoke event
  // carries the app's URL as Electron's senderFrame would.
  await page.exposeBinding('__electronInvoke', (_source, channel: string, ...args: unknown[]) =>
    ipc.invoke({ senderFrame: { url: APP_ENTRY } }, channel, ...args),
  );
  await page.addInitScript({ content: preloadHarness(readFileSync(join(out, 'preload.cjs'), 'utf8')) });
  pageReady = true;
  await page.goto(`${address}/index.html`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await bob?.destroy();
  await emulator?.close();
  await new Promise((done) => server?.close(done));
  rmSync(out, { recursive: true, force: true });
});

describe('Electron sample: the renderer and preload in Chromium', () => {
  it('signs in from the button and shows the player, status and voice engine', async () => {
    await page.locator('#status', { hasText: 'Disconnected' }).waitFor();
    await page.click('#sign-in');
    await page.locator('#status', { hasText: 'Ready' }).waitFor();
    expect(await page.locator('#user').innerText()).toBe('Alice (@alice)');
    expect(await page.locator('#engine').innerText()).toMatch(/^voice engine: (native|js) /);
    expect(await page.locator('#sign-in').isHidden()).toBe(true);
  });

  it('shows a friend request, accepts it, and shows presence and rich presence', async () => {
    await bob.sendDiscordFriendRequest('alice');
    const row = page.locator('#friends li', { hasText: 'Bob' });
    await row.locator('button', { hasText: 'Accept' }).click();
    await row.locator('.presence.online').waitFor();
    await bob.updateRichPresence({ type: ActivityTypes.Playing, details: 'Waiting in the tavern' });
    await row.locator('.activity', { hasText: 'Waiting in the tavern' }).waitFor();
    expect(await row.locator('button').count()).toBe(0);
  });

  it('chats with a friend in the DM panel, showing their text as text', async () => {
    await page.locator('#friends li', { hasText: 'Bob' }).click();
    await page.locator('#dm-title', { hasText: 'Direct messages with Bob' }).waitFor();
    const heard = bobReceives((lobbyId) => lobbyId === null);
    await page.fill('#dm-input', 'hello Bob');
    await page.press('#dm-input', 'Enter');
    expect(await heard).toBe('hello Bob');
    await page.locator('#dm-messages li', { hasText: 'hello Bob' }).waitFor();

    const markup = '<img src=x onerror="document.title=\'pwned\'">';
    await bob.sendUserMessage(aliceId, markup);
    await page.locator('#dm-messages li', { hasText: markup }).waitFor();
    expect(await page.locator('#dm-messages img').count()).toBe(0);
    expect(await page.title()).toBe('sdkpp — Electron sample');
    expect(await page.inputValue('#dm-input')).toBe('');
  });

  it('joins a lobby and chats there', async () => {
    await bob.createOrJoinLobby('tavern');
    await page.fill('#lobby-secret', 'tavern');
    await page.click('#lobby-join button[type=submit]');
    await page.locator('#lobby-members li', { hasText: 'Bob' }).waitFor();
    expect((await page.locator('#lobby-members li').allInnerTexts()).sort()).toEqual(['Alice', 'Bob']);
    const heard = bobReceives((lobbyId) => lobbyId !== null);
    await page.fill('#lobby-input', 'ready?');
    await page.press('#lobby-input', 'Enter');
    expect(await heard).toBe('ready?');
    const lobbyId = bob.getLobbyIds()[0] ?? '';
    await bob.sendLobbyMessage(lobbyId, 'ready!');
    await page.locator('#lobby-messages li', { hasText: 'ready!' }).waitFor();
  });

  it('streams the page’s microphone (getUserMedia) into the lobby’s voice call, and Bob hears what was said', async () => {
    const lobbyId = bob.getLobbyIds()[0] ?? '';
    const heardFile = join(out, 'bob-hears.wav');
    await bob.setOutputDevice(`wav-out:${heardFile}`);
    const bobCall = bob.startCall(lobbyId);
    const spoke: boolean[] = [];
    bobCall.on('speakingStatusChanged', (userId, speaking) => {
      if (userId === aliceId) spoke.push(speaking);
    });
    await page.click('#voice-toggle');
    await page.locator('#voice-toggle', { hasText: 'Leave voice' }).waitFor();
    const until = async (check: () => boolean, what: string): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await until(() => spoke.includes(true), 'Alice speaking at Bob');
    // The fake device loops the sentence: two rounds of it reach Bob.
    await new Promise((resolve) => setTimeout(resolve, 2 * speech.durationMs + 500));
    await page.click('#voice-toggle');
    await page.locator('#voice-toggle', { hasText: 'Join voice' }).waitFor();
    await bob.endCall(lobbyId);
    const match = matchAudio(speech.pcm, readWavFile(heardFile));
    if (process.env.SDKPP_DEBUG_SPEECH) console.log('page microphone', JSON.stringify(match));
    expect(match.segmentCorrelation).toBeGreaterThanOrEqual(0.7);
  });

  it('shows a refusal from main, and a compromised page gets typed errors too', async () => {
    await page.fill('#add-friend-name', 'Not A Name!');
    await page.click('#add-friend button');
    await page.locator('#error', { hasText: /^invalid-argument: username must be a username/ }).waitFor();

    const answers = await page.evaluate(async () => {
      const api = (globalThis as unknown as PageGlobals).sdkpp;
      const call = api.sendMessage as unknown as (...args: unknown[]) => Promise<BridgeResult<unknown>>;
      return [
        await call(42, 'hi'),
        await call('1', 'x'.repeat(2001)),
        typeof (globalThis as unknown as { require?: unknown }).require,
        typeof (globalThis as unknown as { process?: unknown }).process,
      ];
    });
    expect(answers.slice(0, 2).map((a) => (a as BridgeResult<unknown>).ok)).toEqual([false, false]);
    expect(answers.slice(0, 2).map((a) => (a as { error: { code: string } }).error.code)).toEqual([
      'invalid-argument',
      'invalid-argument',
    ]);
    expect(answers.slice(2)).toEqual(['undefined', 'undefined']);
  });

  it('ran without script errors or policy violations, and leaves a screenshot', async () => {
    mkdirSync(join(root, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(readFileSync(SCREENSHOT).subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    expect(problems).toEqual([]);
  });

  it('signs out from the button and clears the social state from the screen', async () => {
    await page.click('#sign-out');
    await page.locator('#status', { hasText: 'Disconnected' }).waitFor();
    await page.locator('#sign-in').waitFor({ state: 'visible' });
    expect(await page.locator('#friends li').count()).toBe(0);
    expect(await page.locator('#dm-messages li').count()).toBe(0);
    expect(await page.locator('#lobby-members li').count()).toBe(0);
    expect(await page.locator('#dm-input').isDisabled()).toBe(true);
    expect(problems).toEqual([]);
  });
});

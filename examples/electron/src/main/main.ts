/**
 * The Electron main process, kept thin: it serves the page from a private scheme, opens a sandboxed window,
 * and hands Electron's `ipcMain` to the bridge (bridge.ts), which owns the sdkpp client. Build with
 * `npm run example:electron:build`, run with `npx electron@41.7.1 examples/electron/dist/main.js`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { app, BrowserWindow, ipcMain, net, protocol, session, shell } from 'electron';
import { LoggingSeverity } from 'sdkpp';

import { APP_ENTRY, APP_SCHEME, CONTENT_SECURITY_POLICY, isAppUrl, resolveAppFile } from './appProtocol.js';
import { createSdkppBridge, type SdkppBridge } from './bridge.js';
import { startCompanion } from './companion.js';
import { resolveBackend, type Backend } from './config.js';

const here = dirname(fileURLToPath(import.meta.url));

function log(line: string): void {
  process.stdout.write(`[electron] ${line}\n`);
}

// Must happen before `ready`: a standard, secure scheme gets an origin of its own for the CSP's 'self'.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true } }]);
app.enableSandbox();

function serveApp(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(request.url, here);
    if (!file) return new Response('not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
  // The app's own page may use the microphone (voice chat streams it to the main process); nothing else a
  // permission guards (camera, notifications, …), and no other page.
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const types = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(appMicrophone(permission, details.requestingUrl, types));
  });
  session.defaultSession.setPermissionCheckHandler((_contents, permission, origin, details) =>
    appMicrophone(permission, origin, details.mediaType ? [details.mediaType] : undefined),
  );
}

/** A permission request that is the app's page asking for audio capture, and only that. */
function appMicrophone(
  permission: string,
  url: string | undefined,
  mediaTypes: readonly string[] | undefined,
): boolean {
  return (
    permission === 'media' &&
    isAppUrl(url) &&
    (mediaTypes ?? []).length > 0 &&
    (mediaTypes ?? []).every((t) => t === 'audio')
  );
}

function openWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 720,
    title: 'sdkpp — Electron sample',
    webPreferences: {
      preload: join(here, 'preload.cjs'),
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      spellcheck: false,
    },
  });
  // The page never opens windows or navigates; a link or a compromised script trying to is refused.
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event) => {
    event.preventDefault();
  });
  return window;
}

async function start(): Promise<void> {
  await app.whenReady();
  serveApp();
  const backend: Backend = await resolveBackend(process.argv.slice(2), process.env);
  log(backend.description);
  const window = openWindow();

  const webBase = backend.client.webBase ?? '';
  const bridge: SdkppBridge = createSdkppBridge({
    ipcMain,
    send: (channel, event) => {
      if (!window.isDestroyed()) window.webContents.send(channel, event);
    },
    client: {
      // The player's browser shows the consent page; only the platform's own pages are opened.
      openUrl: async (url) => {
        if (!url.startsWith(`${webBase}/`)) throw new Error('refusing to open a page outside the platform');
        await shell.openExternal(url);
      },
      ...backend.client,
      localClient: false,
      logCallback: (message, severity) => {
        log(`sdkpp ${LoggingSeverity[severity]}: ${message}`);
      },
      logSeverity: LoggingSeverity.Warning,
    },
    isTrustedSender: (event) => isAppUrl(event.senderFrame?.url),
  });
  const engine = bridge.client.getMediaEngineInfo();
  log(
    `media engine: ${engine.engine} ${engine.version}, crypto ${engine.crypto.version} (${engine.crypto.linkage})` +
      (engine.fallbackReason ? ` (JS fallback: ${engine.fallbackReason})` : ''),
  );
  const companion = backend.emulator ? await startCompanion(backend.emulator, 'alice', log) : undefined;

  app.on('window-all-closed', () => {
    void (async () => {
      await bridge.close();
      await companion?.close();
      await backend.close();
      app.quit();
    })();
  });
  await window.loadURL(APP_ENTRY);
}

start().catch((error: unknown) => {
  process.stderr.write(`[electron] ${error instanceof Error ? error.message : String(error)}\n`);
  app.exit(1);
});

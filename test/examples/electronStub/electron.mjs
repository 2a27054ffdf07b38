/**
 * A stand-in for the parts of Electron that examples/electron/src/main/main.ts touches, so the built main
 * process runs under Node (Electron cannot be fetched here). It records how main configures Electron and,
 * once the window loads, plays the page: it fetches through the app's scheme and invokes the bridge as the
 * preload would. Each observation is one `[electron-stub] {json}` line on stdout for the test to read.
 */
import { existsSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { setImmediate, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

function report(event, data = {}) {
  process.stdout.write(`[electron-stub] ${JSON.stringify({ event, ...data })}\n`);
}

let ready = false;
const ipcHandlers = new Map();
const appListeners = new Map();
let schemeHandler;
let permissionRequest;
let permissionCheck;

export const app = {
  enableSandbox() {
    report('enableSandbox', { ready });
  },
  whenReady() {
    ready = true;
    return Promise.resolve();
  },
  on(event, listener) {
    appListeners.set(event, listener);
  },
  quit() {
    report('quit');
    // The process should end by itself once main closed everything; if not, say so.
    setTimeout(() => {
      report('stillRunning');
      process.exit(3);
    }, 5000).unref();
  },
  exit(code) {
    report('exit', { code });
    process.exit(code);
  },
};

export const protocol = {
  registerSchemesAsPrivileged(schemes) {
    report('registerSchemesAsPrivileged', { schemes, ready });
  },
  handle(scheme, handler) {
    schemeHandler = handler;
    report('protocolHandle', { scheme, ready });
  },
};

export const net = {
  fetch(url) {
    return Promise.resolve(
      new globalThis.Response(readFileSync(fileURLToPath(url)), {
        headers: { 'Content-Type': 'text/plain' },
      }),
    );
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler) {
      permissionRequest = handler;
    },
    setPermissionCheckHandler(handler) {
      permissionCheck = handler;
    },
  },
};

export const shell = {
  openExternal(url) {
    report('openExternal', { url });
    return Promise.reject(new Error('the stand-in opens no browser'));
  },
};

export const ipcMain = {
  handle(channel, listener) {
    if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcHandlers.set(channel, listener);
  },
  removeHandler(channel) {
    ipcHandlers.delete(channel);
  },
};

export class BrowserWindow {
  #listeners = new Map();
  #openHandler;

  constructor(options) {
    const preload = options.webPreferences?.preload;
    report('window', {
      webPreferences: options.webPreferences,
      preloadExists: preload ? existsSync(preload) : false,
    });
    this.webContents = {
      send: (channel, payload) => {
        report('send', { channel, type: payload?.type });
      },
      setWindowOpenHandler: (handler) => {
        this.#openHandler = handler;
      },
      on: (event, listener) => {
        this.#listeners.set(event, listener);
      },
    };
  }

  isDestroyed() {
    return false;
  }

  loadURL(url) {
    report('loadURL', { url });
    setImmediate(() => {
      this.#playPage(url).catch((error) => {
        report('pageFailed', { message: String(error?.stack ?? error) });
        process.exit(4);
      });
    });
    return Promise.resolve();
  }

  async #fetch(url) {
    const response = await schemeHandler(new globalThis.Request(url));
    return {
      status: response.status,
      csp: response.headers.get('content-security-policy'),
      body: await response.text(),
    };
  }

  async #playPage(url) {
    const page = await this.#fetch(url);
    report('page', {
      status: page.status,
      csp: page.csp,
      loadsRenderer: page.body.includes('src="renderer.js"'),
    });
    const refused = [];
    for (const other of [
      'sdkpp-app://app/main.js',
      'sdkpp-app://app/preload.cjs',
      'sdkpp-app://app/x/../../package.json',
    ]) {
      refused.push((await this.#fetch(other)).status);
    }
    report('otherFiles', { statuses: refused });

    let prevented = false;
    this.#listeners.get('will-navigate')?.(
      { preventDefault: () => (prevented = true) },
      'https://evil.example/',
    );
    const ask = (permission, details) =>
      new Promise((done) => permissionRequest?.({}, permission, done, details));
    report('lockdown', {
      windowOpen: this.#openHandler?.({ url: 'https://evil.example/' }),
      navigationPrevented: prevented,
      microphone: await ask('media', { requestingUrl: url, mediaTypes: ['audio'] }),
      camera: await ask('media', { requestingUrl: url, mediaTypes: ['audio', 'video'] }),
      otherPageMicrophone: await ask('media', {
        requestingUrl: 'https://evil.example/',
        mediaTypes: ['audio'],
      }),
      notifications: await ask('notifications', { requestingUrl: url }),
      microphoneCheck: permissionCheck?.({}, 'media', 'sdkpp-app://app', { mediaType: 'audio' }),
      cameraCheck: permissionCheck?.({}, 'media', 'sdkpp-app://app', { mediaType: 'video' }),
    });

    const invoke = (frameUrl, ...args) =>
      ipcHandlers.get('sdkpp:invoke')({ senderFrame: { url: frameUrl } }, ...args);
    const signIn = await invoke(url, 'signIn');
    report('signIn', { ok: signIn.ok, status: signIn.value?.status, user: signIn.value?.user?.username });
    const friends = await invoke(url, 'getFriends');
    report('friends', { friends: friends.value?.map((f) => `${f.username}:${f.relation}`) });
    const evil = await invoke('https://evil.example/', 'getFriends');
    report('untrusted', { code: evil.error?.code });

    appListeners.get('window-all-closed')?.();
  }
}

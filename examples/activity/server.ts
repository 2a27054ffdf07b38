/**
 * The Activity's own server: what a game team deploys behind the platform's Activity proxy. It serves the
 * game's page (and the Embedded App SDK's browser build, straight from the npm package), exchanges the
 * authorization code the page gets from AUTHORIZE for an access token (with the client secret, which never
 * reaches the browser), and runs the game: one room per Activity instance, over a WebSocket.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { GameBackend } from 'sdkpp/backend';
import { WebSocketServer } from 'ws';

import { Rooms } from './rooms.js';
import { startTipsServer } from './tips.js';

/** Where the server finds the platform and who it is there. */
export interface ActivityServerOptions {
  /** The platform's API base (the emulator's `api`). */
  api: string;
  /** The application's id (the client id). */
  clientId: string;
  /** The application's client secret (a secret: it stays on this server). */
  clientSecret: string;
  /** Port to listen on (0: any free port). */
  port?: number;
}

/** A running game server. */
export interface ActivityServer {
  /** Its origin, e.g. `http://127.0.0.1:5173`: the root URL mapping points here. */
  url: string;
  /** The tips service's origin (another origin): the `/tips` URL mapping points here. */
  tipsUrl: string;
  rooms: Rooms;
  close(): Promise<void>;
}

const PUBLIC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'public');
/** The SDK's ESM build has no bare imports, so a browser loads it as it is from the package. */
const SDK = path.dirname(createRequire(import.meta.url).resolve('@discord/embedded-app-sdk'));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
/** The largest request body the server reads (a code is far smaller). */
const MAX_BODY_BYTES = 4096;

/** A file under `root`, or undefined (also for `..` tricks). */
function fileUnder(root: string, relative: string): string | undefined {
  const file = path.resolve(root, `.${path.posix.normalize(`/${relative}`)}`);
  if (!file.startsWith(`${root}${path.sep}`) || !existsSync(file) || !statSync(file).isFile())
    return undefined;
  return file;
}

function sendFile(res: ServerResponse, file: string | undefined): void {
  const type = file && TYPES[path.extname(file)];
  if (!file || !type) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    return;
  }
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
  createReadStream(file).pipe(res);
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve(typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
      } catch {
        reject(new Error('not JSON'));
      }
    });
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Starts the game server. */
export async function startActivityServer(options: ActivityServerOptions): Promise<ActivityServer> {
  const rooms = new Rooms(options.api);
  const tips = await startTipsServer();
  // The code exchange only: the server holds the client secret (and no bot token).
  const backend = new GameBackend({
    apiBase: options.api,
    applicationId: options.clientId,
    clientSecret: options.clientSecret,
    httpRequestTimeoutMs: 10_000,
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://game');
    if (url.pathname === '/api/config') {
      // The tips service's host, as a game would have its third-party API's host in its own configuration.
      json(res, 200, { clientId: options.clientId, tipsHost: new URL(tips.url).host });
    } else if (url.pathname === '/api/token' && req.method === 'POST') {
      readJson(req)
        .then(async (body) => {
          if (typeof body.code !== 'string') throw new Error('no code');
          // The confidential client's grant: an Activity's code has no PKCE challenge and no redirect URI, so
          // the code goes with the client secret alone.
          const tokens = await backend.exchangeCode({ code: body.code });
          json(res, 200, { access_token: tokens.accessToken });
        })
        .catch((error: unknown) => {
          json(res, 400, { error: (error as Error).message });
        });
    } else if (url.pathname.startsWith('/sdk/')) {
      sendFile(res, fileUnder(SDK, url.pathname.slice('/sdk/'.length)));
    } else {
      sendFile(res, fileUnder(PUBLIC, url.pathname === '/' ? 'index.html' : url.pathname));
    }
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://game');
    const instanceId = url.searchParams.get('instance_id') ?? '';
    if (url.pathname !== '/api/play' || !/^[\w-]{1,200}$/.test(instanceId)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      rooms.accept(instanceId, ws);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tipsUrl: tips.url,
    rooms,
    close: async () => {
      await backend.close();
      await tips.close();
      rooms.close();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { rawExchange } from './helpers.js';
import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running, cleanups } = closeAfterEach();

/** What the game's server was asked: each request's URL and headers, plain and upgrade alike. */
interface Seen {
  kind: 'http' | 'upgrade';
  url: string;
  headers: IncomingMessage['headers'];
}

/**
 * A game server that answers every request with what it received, and names a header of its own as
 * hop-by-hop (`X-Hop-Reply`, listed in its Connection header), which must not reach the browser. Upgrades are
 * switched with the same header, and the socket then carries what was received and ends.
 */
async function gameServer(): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ kind: 'http', url: req.url ?? '', headers: req.headers });
    const text = JSON.stringify({ url: req.url, headers: req.headers });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      connection: 'close, X-Hop-Reply',
      'x-hop-reply': 'from the game',
      'x-kept-reply': 'yes',
    });
    res.end(text);
  });
  server.on('upgrade', (req: IncomingMessage, socket) => {
    seen.push({ kind: 'upgrade', url: req.url ?? '', headers: req.headers });
    socket.end(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade, X-Hop-Reply\r\n' +
        'X-Hop-Reply: from the game\r\nX-Kept-Reply: yes\r\n\r\n' +
        JSON.stringify({ url: req.url, headers: req.headers }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A raw exchange with the emulator's port as the proxy host: the path goes out exactly as written. */
function raw(emu: Emulator, method: string, path: string, headers: string[] = []): Promise<string> {
  const origin = new URL(emu.activityUrl);
  return rawExchange(Number(origin.port), [
    `${method} ${path} HTTP/1.1`,
    `Host: ${origin.host}`,
    'Connection: close',
    ...headers,
  ]);
}

/** A raw WebSocket handshake through the proxy; `connection` replaces the usual `Upgrade`. */
function rawUpgrade(
  emu: Emulator,
  path: string,
  connection = 'Upgrade',
  headers: string[] = [],
): Promise<string> {
  const origin = new URL(emu.activityUrl);
  return rawExchange(Number(origin.port), [
    `GET ${path} HTTP/1.1`,
    `Host: ${origin.host}`,
    `Connection: ${connection}`,
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...headers,
  ]);
}

function status(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
}

function head(response: string): string {
  return response.split('\r\n\r\n')[0] ?? '';
}

function body(response: string): { url: string; headers: Record<string, string> } {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as {
    url: string;
    headers: Record<string, string>;
  };
}

const CLIMBS = [
  '/api/../../secret',
  '/api/%2e%2e/%2e%2e/secret',
  '/api/..\\..\\secret',
  '/api/%2E%2e/secret',
];

describe('the Activity proxy under hostile requests', () => {
  it('refuses a path that climbs out of its URL mapping, however it is spelled, and logs it', async () => {
    const game = await gameServer();
    const { emu, logs } = await loggedEmulator(running, {
      users: 1,
      activityUrlMappings: [{ prefix: '/api', target: `${game.origin}/apiroot` }],
    });
    for (const path of [...CLIMBS, '/api/..%2f..%2fsecret', '/api/x/..%5c..%5c..%5csecret']) {
      expect([400, 404], path).toContain(status(await raw(emu, 'GET', path)));
    }
    expect(game.seen).toEqual([]);
    expect(logs.filter((l) => l.includes('proxy: refused GET')).length).toBe(6);

    // Dot segments that stay inside the mapping are resolved before the request goes on.
    const inside = await raw(emu, 'GET', '/api/a/./b/../c%2Ed?x=..');
    expect(status(inside)).toBe(200);
    expect(body(inside).url).toBe('/apiroot/a/c%2Ed?x=..');
    expect((await raw(emu, 'GET', '/.proxy/api/a/%2e%2e/b')).includes('"url":"/apiroot/b"')).toBe(true);
    expect(game.seen.map((s) => s.url)).toEqual(['/apiroot/a/c%2Ed?x=..', '/apiroot/b']);
  });

  it("refuses a /.proxy path that climbs out of /.proxy, and one that moves from one mapping into another's", async () => {
    const web = await gameServer();
    const api = await gameServer();
    const { emu } = await loggedEmulator(running, {
      users: 1,
      activityUrlMappings: [
        { prefix: '/', target: web.origin },
        { prefix: '/api', target: `${api.origin}/apiroot` },
      ],
    });
    for (const path of [
      '/.proxy/%2e%2e/.emulator/activity',
      '/.proxy/../.emulator/activity',
      '/.proxy/..\\.emulator/activity',
      '/api/../index.html',
      '/static/../api/token',
    ]) {
      expect([400, 404], path).toContain(status(await raw(emu, 'GET', path)));
    }
    expect([...web.seen, ...api.seen]).toEqual([]);
    // The host page itself is still served, and the game still gets its own paths.
    expect(status(await raw(emu, 'GET', '/.emulator/activity'))).toBe(200);
    expect(body(await raw(emu, 'GET', '/.proxy/index.html')).url).toBe('/index.html');
  });

  it('refuses the same climbs in a WebSocket upgrade', async () => {
    const game = await gameServer();
    const { emu, logs } = await loggedEmulator(running, {
      users: 1,
      activityUrlMappings: [{ prefix: '/api', target: `${game.origin}/apiroot` }],
    });
    for (const path of [...CLIMBS, '/.proxy/%2e%2e/.emulator/activity']) {
      expect([400, 404], path).toContain(status(await rawUpgrade(emu, path)));
    }
    expect(game.seen).toEqual([]);
    expect(logs.filter((l) => l.includes('proxy: refused upgrade')).length).toBe(5);
    const inside = await rawUpgrade(emu, '/api/ws/../socket');
    expect(status(inside)).toBe(101);
    expect(game.seen.map((s) => s.url)).toEqual(['/apiroot/socket']);
  });

  it('drops hop-by-hop headers both ways, those the Connection header names included', async () => {
    const game = await gameServer();
    const { emu } = await loggedEmulator(running, {
      users: 1,
      activityUrlMappings: [{ prefix: '/', target: game.origin }],
    });
    const response = await raw(emu, 'GET', '/page', [
      'Connection: keep-alive, X-Secret',
      'X-Secret: only for the next hop',
      'Keep-Alive: timeout=5',
      'Proxy-Connection: keep-alive',
      'X-Kept: k',
    ]);
    expect(status(response)).toBe(200);
    const sent = body(response).headers;
    expect(sent).not.toHaveProperty('x-secret');
    expect(sent).not.toHaveProperty('keep-alive');
    expect(sent).not.toHaveProperty('proxy-connection');
    expect(sent['x-kept']).toBe('k');
    expect(head(response)).not.toMatch(/x-hop-reply/i);
    expect(head(response)).toMatch(/x-kept-reply: yes/i);

    const upgraded = await rawUpgrade(emu, '/socket', 'Upgrade, X-Secret', [
      'X-Secret: only for the next hop',
      'Keep-Alive: timeout=5',
      'X-Kept: k',
    ]);
    expect(status(upgraded)).toBe(101);
    const received = body(upgraded).headers;
    expect(received).not.toHaveProperty('x-secret');
    expect(received).not.toHaveProperty('keep-alive');
    expect(received['x-kept']).toBe('k');
    expect(received.upgrade).toBe('websocket');
    expect(received.connection?.toLowerCase()).toBe('upgrade');
    expect(received['sec-websocket-key']).toBe('dGhlIHNhbXBsZSBub25jZQ==');
    expect(head(upgraded)).not.toMatch(/x-hop-reply/i);
    expect(head(upgraded)).toMatch(/^upgrade: websocket$/im);
    expect(head(upgraded)).toMatch(/^connection: upgrade$/im);
    expect(head(upgraded)).toMatch(/x-kept-reply: yes/i);
  });
});

import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { mapPath } from '../../packages/emulator/src/activities/ActivityProxy.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running, cleanups } = closeAfterEach();

/** A small game server: it answers with where it was asked, and echoes POST bodies. */
async function gameServer(name: string): Promise<string> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': name, connection: 'close' });
      res.end(
        JSON.stringify({
          server: name,
          url: req.url,
          method: req.method,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A request to the emulator's port with the Activity proxy's Host, as a browser at that origin sends it. */
function viaProxy(
  emu: Emulator,
  path: string,
  method = 'GET',
  body?: string,
): Promise<{
  status: number;
  json: Record<string, unknown> | null;
  text: string;
  headers: IncomingMessage['headers'];
}> {
  const origin = new URL(emu.activityUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: origin.port,
        path,
        method,
        headers: { host: origin.host, 'content-type': 'text/plain' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: Record<string, unknown> | null = null;
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, json, text, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the Activity proxy', () => {
  it('maps paths the platform way: /.proxy and unprefixed alike, the longest prefix first', () => {
    const mappings = [
      { prefix: '/', target: 'http://127.0.0.1:5173' },
      { prefix: '/api', target: 'http://127.0.0.1:3001' },
    ];
    expect(mapPath(mappings, '/index.html')).toBe('http://127.0.0.1:5173/index.html');
    expect(mapPath(mappings, '/.proxy/index.html')).toBe('http://127.0.0.1:5173/index.html');
    expect(mapPath(mappings, '/api/token?x=1')).toBe('http://127.0.0.1:3001/token?x=1');
    expect(mapPath(mappings, '/.proxy/api/token')).toBe('http://127.0.0.1:3001/token');
    expect(mapPath(mappings, '/apis')).toBe('http://127.0.0.1:5173/apis');
    expect(mapPath([{ prefix: '/api', target: 'http://127.0.0.1:3001' }], '/other')).toBeUndefined();
  });

  it('forwards to the game servers through the URL mappings, and says why when it cannot', async () => {
    const web = await gameServer('web');
    const api = await gameServer('api');
    const { emu, logs } = await loggedEmulator(running, {
      users: 1,
      activityUrlMappings: [
        { prefix: '/', target: web },
        { prefix: '/api', target: api },
      ],
    });
    expect(emu.activityUrl).toMatch(new RegExp(`^http://${emu.applicationId}\\.localhost:\\d+$`));
    const page = await viaProxy(emu, '/.proxy/index.html?frame_id=1');
    expect(page.json).toMatchObject({ server: 'web', url: '/index.html?frame_id=1' });
    expect(page.headers['x-served-by']).toBe('web');
    const token = await viaProxy(emu, '/api/token', 'POST', 'code=abc');
    expect(token.json).toMatchObject({ server: 'api', url: '/token', method: 'POST', body: 'code=abc' });
    expect((await viaProxy(emu, '/.proxy/api/token')).json).toMatchObject({ server: 'api', url: '/token' });
    // The same port without the proxy's host is the emulator's API, as before.
    expect((await fetch(`${emu.api}/gateway`)).status).toBe(200);

    emu.setActivityUrlMappings([{ prefix: '/api', target: 'http://127.0.0.1:9' }]);
    const unmapped = await viaProxy(emu, '/index.html');
    expect(unmapped.status).toBe(404);
    const down = await viaProxy(emu, '/api/token');
    expect(down.status).toBe(502);
    expect(
      logs.some((l) => l.includes('proxy: GET /api/token failed: the game server could not be reached')),
    ).toBe(true);
    expect(() => emu.setActivityUrlMappings([{ prefix: 'api', target: api }])).toThrow('not a path prefix');
    expect(() => emu.setActivityUrlMappings([{ prefix: '/', target: 'ftp://x' }])).toThrow(
      'not an http: URL',
    );
  });
});

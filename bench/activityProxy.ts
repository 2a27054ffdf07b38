// The Activity proxy (issue 20), lower is better, against http-proxy-3 (the maintained http-proxy fork that
// Vite's dev-server proxy runs on) forwarding to the same game server in the same process:
//   activity-proxy-get        µs per sequential GET of a 1 KiB page through the proxy (keep-alive)
//   activity-proxy-ws-echo    µs per round trip of a 64-byte WebSocket message through the proxied upgrade
//   activity-proxy-download   ms to stream a 64 MiB body through the proxy
// Both proxies map the same paths to the same server; the emulator's also runs its own request handling (the
// proxy host check), as a game's requests do. Each line is the median of 5 runs per side, taken in turn.
// Run: npx tsx bench/activityProxy.ts
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createProxyServer } from 'http-proxy-3';
import { WebSocket, WebSocketServer } from 'ws';

import { startEmulator } from '../packages/emulator/src/index.js';
import { report, result } from './lib/report.js';

const PAGE = Buffer.alloc(1024, 'a');
const DOWNLOAD_BYTES = 64 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'b');
const GETS = 1000;
const ECHOES = 2000;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The game's server: a page, a large download and a WebSocket echo. */
const game = createServer((req, res) => {
  if (req.url === '/download') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': DOWNLOAD_BYTES });
    let sent = 0;
    const pump = (): void => {
      while (sent < DOWNLOAD_BYTES) {
        sent += CHUNK.length;
        if (!res.write(CHUNK)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': PAGE.length }).end(PAGE);
});
new WebSocketServer({ server: game }).on('connection', (ws) => {
  ws.on('message', (data: Buffer) => ws.send(data));
});
const gamePort = await listen(game);
const target = `http://127.0.0.1:${gamePort}`;

const emulator = await startEmulator({ port: 0, users: 1, activityUrlMappings: [{ prefix: '/', target }] });
const emulatorPort = Number(new URL(emulator.http).port);
const emulatorHost = new URL(emulator.activityUrl).host;

const peer = createProxyServer({ target, ws: true });
peer.on('error', () => {
  // A benchmark peer that fails shows as a failed request.
});
const peerServer = createServer((req, res) => {
  peer.web(req, res);
});
peerServer.on('upgrade', (req, socket, head) => {
  peer.ws(req, socket, head);
});
const peerPort = await listen(peerServer);

interface Front {
  port: number;
  host: string;
}
const ours: Front = { port: emulatorPort, host: emulatorHost };
const theirs: Front = { port: peerPort, host: `127.0.0.1:${peerPort}` };

function get(front: Front, path: string, agent: import('node:http').Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: front.port, path, agent, headers: { host: front.host } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function usPerGet(front: Front): Promise<number> {
  const { Agent } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < GETS / 10; i++) await get(front, '/index.html', agent);
  const start = process.hrtime.bigint();
  for (let i = 0; i < GETS; i++) {
    if ((await get(front, '/index.html', agent)) !== PAGE.length) throw new Error('short page');
  }
  const us = Number(process.hrtime.bigint() - start) / 1000 / GETS;
  agent.destroy();
  return us;
}

async function usPerEcho(front: Front): Promise<number> {
  const ws = new WebSocket(`ws://127.0.0.1:${front.port}/play`, { headers: { host: front.host } });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const message = Buffer.alloc(64, 'c');
  const roundTrip = (): Promise<void> =>
    new Promise((resolve) => {
      ws.once('message', () => resolve());
      ws.send(message);
    });
  for (let i = 0; i < ECHOES / 10; i++) await roundTrip();
  const start = process.hrtime.bigint();
  for (let i = 0; i < ECHOES; i++) await roundTrip();
  const us = Number(process.hrtime.bigint() - start) / 1000 / ECHOES;
  ws.close();
  return us;
}

async function msPerDownload(front: Front): Promise<number> {
  const { Agent } = await import('node:http');
  const agent = new Agent({ keepAlive: false });
  await get(front, '/download', agent);
  const start = process.hrtime.bigint();
  const bytes = await get(front, '/download', agent);
  if (bytes !== DOWNLOAD_BYTES) throw new Error(`the download came short: ${bytes} bytes`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const PEER = 'http-proxy-3 2.0.1';

/**
 * Each side's median over 5 runs taken in turn (ours, theirs, ours, …) after one run each, so neither gains from
 * the other warming the shared client and server code.
 */
async function inTurn(measure: (front: Front) => Promise<number>): Promise<[number, number]> {
  await measure(ours);
  await measure(theirs);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 5; i++) {
    a.push(await measure(ours));
    b.push(await measure(theirs));
  }
  const median = (v: number[]): number => [...v].sort((x, y) => x - y)[2] ?? Number.NaN;
  return [median(a), median(b)];
}

const [getOurs, getTheirs] = await inTurn(usPerGet);
report(result('activity-proxy-get', 'µs', getOurs, PEER, getTheirs));
const [echoOurs, echoTheirs] = await inTurn(usPerEcho);
report(result('activity-proxy-ws-echo', 'µs', echoOurs, PEER, echoTheirs));
const [downloadOurs, downloadTheirs] = await inTurn(msPerDownload);
report(result('activity-proxy-download', 'ms', downloadOurs, PEER, downloadTheirs));

await emulator.close();
peerServer.closeAllConnections();
peerServer.close();
game.closeAllConnections();
game.close();

import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';

import { Logger } from '../../../packages/sdkpp/src/logging/index.js';
import {
  VoiceGatewayClient,
  type VoiceGatewayEnd,
} from '../../../packages/sdkpp/src/voice/gateway/VoiceGatewayClient.js';

/** A scripted voice server on loopback: records what each connection sent, the test answers. */
class ScriptedServer {
  readonly wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  readonly connections: { socket: WebSocket; received: unknown[] }[] = [];
  ackHeartbeats = true;

  constructor(onConnection: (socket: WebSocket, index: number) => void) {
    this.wss.on('connection', (socket) => {
      const entry = { socket, received: [] as unknown[] };
      this.connections.push(entry);
      socket.on('message', (data, isBinary) => {
        const message = isBinary
          ? { binary: Uint8Array.from(data as Buffer) }
          : (JSON.parse(text(data)) as unknown);
        entry.received.push(message);
        const op = (message as { op?: number }).op;
        if (op === 3 && this.ackHeartbeats) {
          socket.send(JSON.stringify({ op: 6, d: { t: (message as { d: { t: number } }).d.t } }));
        }
      });
      onConnection(socket, this.connections.length - 1);
    });
  }

  get url(): string {
    const address = this.wss.address();
    if (typeof address === 'string' || address === null) throw new Error('unexpected address');
    return `ws://127.0.0.1:${address.port}/?v=8`;
  }

  close(): Promise<void> {
    for (const c of this.connections) c.socket.terminate();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}

/** A text frame's string. */
function text(data: unknown): string {
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
}

async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const READY = { op: 2, d: { ssrc: 42, ip: '127.0.0.1', port: 5000, modes: ['aead_aes256_gcm_rtpsize'] } };

function opsOf(received: unknown[]): number[] {
  return received.map((m) => (m as { op?: number }).op ?? -1);
}

const servers: ScriptedServer[] = [];
const clients: VoiceGatewayClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function clientFor(server: ScriptedServer, lines: string[] = []): VoiceGatewayClient {
  const logger = new Logger({ debug: true });
  logger.addCallback((line) => lines.push(line));
  const client = new VoiceGatewayClient({
    url: server.url,
    serverId: '100',
    userId: '200',
    sessionId: 'main-session',
    token: 'voice-token-secret',
    log: logger.writer('voice'),
    reconnectDelayMs: () => 10,
  });
  clients.push(client);
  return client;
}

describe('the voice gateway client', () => {
  it('identifies after Hello with max_dave_protocol_version, then reports Ready and sends Select Protocol', async () => {
    const server = new ScriptedServer((socket) => {
      socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 1000, v: 8 } }));
      socket.on('message', (data) => {
        if ((JSON.parse(text(data)) as { op: number }).op === 0) socket.send(JSON.stringify(READY));
      });
    });
    servers.push(server);
    await new Promise((r) => server.wss.once('listening', r));
    const lines: string[] = [];
    const client = clientFor(server, lines);
    const ready: unknown[] = [];
    client.on('ready', (r) => ready.push(r));
    client.open();
    await until(() => ready.length === 1, 'Ready');
    expect(ready[0]).toEqual(READY.d);
    expect(server.connections[0]?.received[0]).toEqual({
      op: 0,
      d: {
        server_id: '100',
        user_id: '200',
        session_id: 'main-session',
        token: 'voice-token-secret',
        max_dave_protocol_version: 1,
      },
    });
    client.selectProtocol('127.0.0.1', 4444, 'aead_aes256_gcm_rtpsize');
    await until(() => server.connections[0]?.received.length === 2, 'Select Protocol');
    expect(server.connections[0]?.received[1]).toEqual({
      op: 1,
      d: { protocol: 'udp', data: { address: '127.0.0.1', port: 4444, mode: 'aead_aes256_gcm_rtpsize' } },
    });
    expect(lines.some((l) => l.includes('voice-token-secret'))).toBe(false);
  });

  it('acknowledges JSON and binary sequence numbers with one counter, and resumes with seq_ack after 4015', async () => {
    const server = new ScriptedServer((socket, index) => {
      socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 60, v: 8 } }));
      socket.on('message', (data, isBinary) => {
        if (isBinary) return;
        const op = (JSON.parse(text(data)) as { op: number }).op;
        if (op === 0 && index === 0) {
          socket.send(JSON.stringify(READY));
          socket.send(JSON.stringify({ op: 5, d: { speaking: 1, ssrc: 7, user_id: '9' }, seq: 3 }));
          socket.send(Uint8Array.of(0, 4, 25, 0xaa, 0xbb), { binary: true });
        }
        if (op === 7) {
          socket.send(JSON.stringify({ op: 9, d: null }));
          socket.send(JSON.stringify({ op: 13, d: { user_id: '9' }, seq: 5 }));
        }
      });
    });
    servers.push(server);
    await new Promise((r) => server.wss.once('listening', r));
    const client = clientFor(server);
    const binary: [number, Uint8Array][] = [];
    const json: [number, unknown][] = [];
    let resumed = 0;
    client.on('binary', (op, payload) => binary.push([op, payload]));
    client.on('json', (op, d) => json.push([op, d]));
    client.on('resumed', () => resumed++);
    client.open();
    await until(() => binary.length === 1, 'the binary frame');
    expect(binary[0]).toEqual([25, Uint8Array.of(0xaa, 0xbb)]);
    expect(client.seqAck).toBe(4);
    const first = server.connections[0];
    await until(() => opsOf(first?.received ?? []).includes(3), 'a heartbeat');
    const beat = first?.received.find((m) => (m as { op: number }).op === 3) as { d: { seq_ack: number } };
    expect(beat.d.seq_ack).toBe(4);
    first?.socket.close(4015, 'voice server crashed');
    await until(() => client.state === 'backoff' || client.state === 'connecting', 'the resume to start');
    // Said while the socket is down: sent once the session has resumed, not lost.
    client.sendJson(23, { transition_id: 7 });
    await until(() => resumed === 1, 'the resume');
    await until(() => opsOf(server.connections[1]?.received ?? []).includes(23), 'the held message');
    expect(server.connections[1]?.received.find((m) => (m as { op: number }).op === 23)).toEqual({
      op: 23,
      d: { transition_id: 7 },
    });
    expect(server.connections[1]?.received[0]).toEqual({
      op: 7,
      d: { server_id: '100', session_id: 'main-session', token: 'voice-token-secret', seq_ack: 4 },
    });
    await until(() => json.some(([op]) => op === 13), 'the replayed message');
    expect(client.seqAck).toBe(5);
    expect(client.state).toBe('ready');
  });

  it('closes and resumes after three heartbeats without an ACK', async () => {
    const server = new ScriptedServer((socket) => {
      socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 50, v: 8 } }));
      socket.on('message', (data) => {
        const op = (JSON.parse(text(data)) as { op: number }).op;
        if (op === 0) socket.send(JSON.stringify(READY));
        if (op === 7) socket.send(JSON.stringify({ op: 9, d: null }));
      });
    });
    server.ackHeartbeats = false;
    servers.push(server);
    await new Promise((r) => server.wss.once('listening', r));
    const client = clientFor(server);
    let resumed = 0;
    client.on('resumed', () => resumed++);
    client.open();
    await until(() => resumed === 1, 'a resume after missed ACKs');
    expect(opsOf(server.connections[0]?.received ?? []).filter((op) => op === 3)).toHaveLength(3);
    expect(opsOf(server.connections[1]?.received ?? [])[0]).toBe(7);
  });

  it('never comes back after 4014, 4021 or 4022; identifies afresh after 4006', async () => {
    for (const code of [4014, 4021, 4022]) {
      const server = new ScriptedServer((socket) => {
        socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 1000 } }));
        socket.on('message', (data) => {
          if ((JSON.parse(text(data)) as { op: number }).op === 0) {
            socket.send(JSON.stringify(READY));
            socket.close(code, 'bye');
          }
        });
      });
      servers.push(server);
      await new Promise((r) => server.wss.once('listening', r));
      const client = clientFor(server);
      const ended: [VoiceGatewayEnd, number][] = [];
      client.on('closed', (end, closeCode) => ended.push([end, closeCode]));
      client.open();
      await until(() => ended.length === 1, `the end after ${code}`);
      expect(ended[0]).toEqual(['terminal', code]);
      await new Promise((r) => setTimeout(r, 60));
      expect(server.connections).toHaveLength(1);
    }
    const server = new ScriptedServer((socket, index) => {
      socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 1000 } }));
      socket.on('message', (data) => {
        if ((JSON.parse(text(data)) as { op: number }).op !== 0) return;
        socket.send(JSON.stringify(READY));
        if (index === 0) socket.close(4006, 'session no longer valid');
      });
    });
    servers.push(server);
    await new Promise((r) => server.wss.once('listening', r));
    const client = clientFor(server);
    let readies = 0;
    client.on('ready', () => readies++);
    client.open();
    await until(() => readies === 2, 'a fresh Identify');
    expect(opsOf(server.connections[1]?.received ?? [])[0]).toBe(0);
  });

  it('gives up with "failed" when the server refuses the Identify (4017)', async () => {
    const server = new ScriptedServer((socket) => {
      socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 1000 } }));
      socket.on('message', () => socket.close(4017, 'E2EE/DAVE protocol required'));
    });
    servers.push(server);
    await new Promise((r) => server.wss.once('listening', r));
    const client = clientFor(server);
    const ended: [VoiceGatewayEnd, number, string][] = [];
    client.on('closed', (end, code, reason) => ended.push([end, code, reason]));
    client.open();
    await until(() => ended.length === 1, 'the refusal');
    expect(ended[0]).toEqual(['failed', 4017, 'E2EE/DAVE protocol required']);
    expect(server.connections).toHaveLength(1);
  });
});

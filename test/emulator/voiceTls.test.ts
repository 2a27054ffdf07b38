import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';

import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running } = closeAfterEach();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-voice-tls-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Opens a WebSocket and resolves with the voice Hello (op 8), or rejects with the connection's error. */
function hello(url: string, options: WebSocket.ClientOptions = {}): Promise<{ op: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('error', reject);
    ws.once('message', (data: Buffer) => {
      resolve(JSON.parse(data.toString('utf8')) as { op: number });
      ws.close();
    });
  });
}

/** Resolves once the server closes a raw TCP connection that sent `bytes` (or nothing); with the time taken. */
function closedAfter(port: number, bytes: Buffer | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = netConnect(port, '127.0.0.1', () => {
      if (bytes) socket.write(bytes);
    });
    socket.on('error', () => {
      // A reset is a close too.
    });
    // Read whatever comes (a TLS alert): a paused socket would never see the end.
    socket.resume();
    socket.once('close', () => {
      resolve(Date.now() - started);
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    }, 5000);
  });
}

describe("the voice gateway's wss://", () => {
  it('serves ws:// and wss:// on one port, with a certificate only its own authority vouches for', async () => {
    const { emu } = await loggedEmulator(running, { users: 1, voice: { certificateDir: dir } });
    const endpoint = emu.voice.endpoint;
    const ca = readFileSync(emu.voiceCaFile ?? '', 'utf8');
    expect((await hello(`ws://${endpoint}/?v=8`)).op).toBe(8);
    expect((await hello(`wss://${endpoint}/?v=8`, { ca })).op).toBe(8);
    // Without the authority, a client refuses the certificate: it is not a public one.
    await expect(hello(`wss://${endpoint}/?v=8`)).rejects.toThrow(/certificate/i);
    // The certificate names the loopback address and localhost.
    const peer = await new Promise<PeerCertificate>((resolve, reject) => {
      const [host = '', port = ''] = endpoint.split(':');
      const socket = tlsConnect({ host, port: Number(port), ca, servername: 'localhost' }, () => {
        resolve(socket.getPeerCertificate());
        socket.end();
      });
      socket.once('error', reject);
    });
    expect(peer.subjectaltname).toContain('IP Address:127.0.0.1');
    expect(peer.subjectaltname).toContain('DNS:localhost');
    expect(peer.issuer.CN).toBe('sdkpp emulator local CA');
  });

  it('keeps one authority across restarts and two emulators starting at once', async () => {
    const shared = path.join(dir, 'shared');
    const [a, b] = await Promise.all([
      loggedEmulator(running, { users: 1, voice: { certificateDir: shared } }),
      loggedEmulator(running, { users: 1, voice: { certificateDir: shared } }),
    ]);
    const ca = readFileSync(a.emu.voiceCaFile ?? '', 'utf8');
    expect(b.emu.voiceCaFile).toBe(a.emu.voiceCaFile);
    // Each one's certificate is vouched for by the one authority file both name.
    expect((await hello(`wss://${a.emu.voice.endpoint}/?v=8`, { ca })).op).toBe(8);
    expect((await hello(`wss://${b.emu.voice.endpoint}/?v=8`, { ca })).op).toBe(8);
    await a.emu.close();
    const again = await loggedEmulator(running, { users: 1, voice: { certificateDir: shared } });
    expect(readFileSync(again.emu.voiceCaFile ?? '', 'utf8')).toBe(ca);
  });

  it('closes a connection that sends nothing, or a broken handshake, and goes on serving', async () => {
    const { emu, logs } = await loggedEmulator(running, {
      users: 1,
      identifyTimeoutMs: 300,
      voice: { certificateDir: dir },
    });
    const port = Number(emu.voice.endpoint.split(':')[1]);
    const silent = await closedAfter(port, null);
    expect(silent).toBeGreaterThanOrEqual(250);
    expect(logs.some((l) => l.includes('connection closed: nothing sent within 300 ms'))).toBe(true);
    // A TLS record header that claims a handshake, then junk.
    await closedAfter(port, Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 0xde, 0xad, 0xbe, 0xef, 0x00]));
    expect(logs.some((l) => l.includes('connection closed: TLS handshake failed'))).toBe(true);
    // A handshake record that announces 512 bytes and stalls after its header.
    const stalled = await closedAfter(port, Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]));
    expect(stalled).toBeGreaterThanOrEqual(250);
    expect(logs.some((l) => l.includes('TLS handshake failed: not done within 300 ms'))).toBe(true);
    const ca = readFileSync(emu.voiceCaFile ?? '', 'utf8');
    expect((await hello(`wss://${emu.voice.endpoint}/?v=8`, { ca })).op).toBe(8);
  });

  it('refuses a damaged authority with the folder to remove, and starts without TLS when told to', async () => {
    const damaged = path.join(dir, 'damaged');
    const first = await loggedEmulator(running, { users: 1, voice: { certificateDir: damaged } });
    await first.emu.close();
    writeFileSync(path.join(damaged, 'authority', 'ca.pem'), 'not a certificate');
    await expect(loggedEmulator(running, { users: 1, voice: { certificateDir: damaged } })).rejects.toThrow(
      /certificate authority in .*authority cannot be read.*remove that folder/,
    );
    const plain = await loggedEmulator(running, { users: 1, voice: { certificateDir: false } });
    expect(plain.emu.voiceCaFile).toBeNull();
    await expect(hello(`wss://${plain.emu.voice.endpoint}/?v=8`)).rejects.toThrow();
    expect((await hello(`ws://${plain.emu.voice.endpoint}/?v=8`)).op).toBe(8);
  });
});

import { randomUUID } from 'node:crypto';

import { afterEach } from 'vitest';
import { WebSocket } from 'ws';

import { startActivityServer, type ActivityServer } from '../../examples/activity/server.js';
import type { Emulator } from '../../packages/emulator/src/index.js';

/** A message of the host page's socket. */
export type HostMessage = Record<string, unknown>;

/**
 * The host page's side of an Activity frame, played by a test over the real WebSocket: what the page would
 * relay from the game's frame (handshake, commands) and what it shows (the open, consent and closed
 * messages). Messages are kept; `next` waits for the first unread one that matches.
 */
export class HostSocket {
  readonly messages: HostMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly #read = new Set<HostMessage>();
  readonly #ws: WebSocket;
  #wake: (() => void) | undefined;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as HostMessage);
      this.#wake?.();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.#wake?.();
      });
    });
  }

  /** Opens the socket of a launch's host page (on the proxy host, as the page does). */
  static open(emu: Emulator, launchUrl: string): Promise<HostSocket> {
    const url = new URL(launchUrl);
    const ticket = url.searchParams.get('ticket') ?? '';
    const port = new URL(emu.http).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/.emulator/activity/socket?ticket=${ticket}`, {
      headers: { host: url.host },
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new HostSocket(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** The first unread message that matches, waiting up to `timeoutMs`. */
  async next(match: (m: HostMessage) => boolean, what: string, timeoutMs = 5000): Promise<HostMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find((m) => !this.#read.has(m) && match(m));
      if (found) {
        this.#read.add(found);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the host socket never got ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** The frame's query string from the open message. */
  async place(): Promise<URLSearchParams> {
    const open = await this.next((m) => m.t === 'open', 'the open message');
    return new URLSearchParams(String(open.src).split('?')[1] ?? '');
  }

  /** Relays an `[opcode, payload]` pair as the page does. */
  frame(op: number, payload: unknown): void {
    this.#ws.send(JSON.stringify({ t: 'frame', d: [op, payload] }));
  }

  /** Sends raw text. */
  raw(text: string | Buffer): void {
    this.#ws.send(text);
  }

  /** The handshake of the Embedded App SDK, then READY's data. */
  async handshake(emu: Emulator): Promise<Record<string, unknown>> {
    const place = await this.place();
    this.frame(0, { v: 1, encoding: 'json', client_id: emu.applicationId, frame_id: place.get('frame_id') });
    const ready = await this.next((m) => dispatchOf(m)?.evt === 'READY', 'READY');
    return dispatchOf(ready)?.data as Record<string, unknown>;
  }

  /** Sends a command and waits for its reply frame (data, or evt ERROR with data). */
  async command(
    cmd: string,
    args: Record<string, unknown> = {},
    evt?: string,
  ): Promise<Record<string, unknown>> {
    const nonce = randomUUID();
    this.frame(1, { cmd, args, nonce, ...(evt === undefined ? {} : { evt }) });
    const reply = await this.next((m) => frameOf(m)?.nonce === nonce, `the reply to ${cmd}`);
    return frameOf(reply) ?? {};
  }

  /** Answers the open OAuth2 modal. */
  async consent(approve: boolean): Promise<HostMessage> {
    const ask = await this.next((m) => m.t === 'consent', 'the OAuth2 modal');
    this.#ws.send(JSON.stringify({ t: 'consent', id: ask.id, approve }));
    return ask;
  }

  close(): void {
    this.#ws.close();
  }
}

/** The payload of a FRAME message, or undefined. */
export function frameOf(m: HostMessage): Record<string, unknown> | undefined {
  const d = m.d as [number, Record<string, unknown>] | undefined;
  return m.t === 'frame' && d?.[0] === 1 ? d[1] : undefined;
}

/** The payload of a CLOSE message, or undefined. */
export function closeOf(m: HostMessage): Record<string, unknown> | undefined {
  const d = m.d as [number, Record<string, unknown>] | undefined;
  return m.t === 'frame' && d?.[0] === 2 ? d[1] : undefined;
}

/** A DISPATCH frame's `{evt, data}`, or undefined. */
export function dispatchOf(m: HostMessage): { evt: string; data: unknown } | undefined {
  const f = frameOf(m);
  return f?.cmd === 'DISPATCH' ? { evt: String(f.evt), data: f.data } : undefined;
}

/** The seeded guild's voice channel. */
export function voiceChannel(emu: Emulator): string {
  const channel = emu.guilds()[0]?.channels.find((c) => c.type === 2);
  if (!channel) throw new Error('no voice channel in the seeded guild');
  return channel.id;
}

/**
 * Starts the sample's game server (Catch the Star) behind an emulator's root URL mapping (and its tips service
 * behind `/tips`). Call it at the top
 * level of a test file: the servers it starts are closed after each test.
 */
export function sampleGames(): (emu: Emulator, clientSecret: string) => Promise<ActivityServer> {
  const games: ActivityServer[] = [];
  afterEach(async () => {
    await Promise.all(games.splice(0).map((g) => g.close()));
  });
  return async (emu, clientSecret) => {
    const game = await startActivityServer({ api: emu.api, clientId: emu.applicationId, clientSecret });
    games.push(game);
    emu.setActivityUrlMappings([
      { prefix: '/', target: game.url },
      { prefix: '/tips', target: game.tipsUrl },
    ]);
    return game;
  };
}

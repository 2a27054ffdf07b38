import { connect, type Socket } from 'node:net';

import {
  RpcFrameDecoder,
  RpcOpcode,
  encodeRpcFrame,
  type RpcFrame,
} from '../../packages/protocol/src/rpcFrame.js';

/** A raw IPC peer: writes bytes, collects frames, notes the end. */
export class Peer {
  readonly socket: Socket;
  readonly frames: RpcFrame[] = [];
  readonly ended: Promise<void>;
  readonly #decoder = new RpcFrameDecoder();

  constructor(socketPath: string) {
    this.socket = connect(socketPath);
    this.socket.on('data', (chunk: Buffer) => this.frames.push(...this.#decoder.push(chunk)));
    this.socket.on('error', () => undefined);
    this.ended = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  send(op: RpcOpcode, body: unknown): void {
    this.socket.write(encodeRpcFrame(op, body));
  }

  async next(match: (f: RpcFrame) => boolean = () => true): Promise<RpcFrame> {
    for (let i = 0; i < 500; i += 1) {
      const index = this.frames.findIndex(match);
      if (index >= 0) return this.frames.splice(index, 1)[0] as RpcFrame;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no frame');
  }

  async handshake(clientId: string): Promise<RpcFrame> {
    this.send(RpcOpcode.Handshake, { v: 1, client_id: clientId });
    return this.next();
  }

  async command(cmd: string, args: Record<string, unknown>, evt?: string): Promise<Record<string, unknown>> {
    const nonce = `${cmd}-${Math.random()}`;
    this.send(RpcOpcode.Frame, { cmd, args, nonce, ...(evt ? { evt } : {}) });
    const reply = await this.next((f) => (f.body as { nonce?: unknown } | null)?.nonce === nonce);
    return reply.body as Record<string, unknown>;
  }
}

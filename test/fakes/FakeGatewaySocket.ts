import { EventEmitter } from 'node:events';

import type { GatewaySocket } from '../../packages/sdkpp/src/gateway/GatewaySocket.js';

/** A scripted gateway socket for unit tests of the gateway client alone. */
export class FakeGatewaySocket extends EventEmitter implements GatewaySocket {
  readonly sent: Array<{ op: number; d: unknown }> = [];
  closedWith: number | undefined;
  terminated = false;

  constructor(readonly url: string) {
    super();
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data) as { op: number; d: unknown });
  }

  close(code?: number): void {
    this.closedWith = code;
    queueMicrotask(() => this.emit('close', code ?? 1005, Buffer.alloc(0)));
  }

  terminate(): void {
    this.terminated = true;
    this.emit('close', 1006, Buffer.alloc(0));
  }

  /** Delivers a server payload. */
  receive(payload: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(payload)), false);
  }

  /** The server closes the socket with `code`. */
  serverClose(code: number): void {
    this.emit('close', code, Buffer.alloc(0));
  }

  ops(): number[] {
    return this.sent.map((p) => p.op);
  }
}

import dgram from 'node:dgram';

/**
 * A tiny voice server for the transport tests, on 127.0.0.1 only: it answers IP discovery (74 bytes,
 * type 1 → type 2 with the address and port it saw) and forwards every other datagram from one client to
 * every other client that has discovered. Packets stay transport-sealed end to end (the tests give both
 * transports the same key), as a real server's forwarding would keep them opaque.
 */
export class VoicePeer {
  readonly #socket = dgram.createSocket('udp4');
  readonly #clients = new Map<string, { address: string; port: number }>();
  /** Datagrams received per client port, other than discovery. */
  readonly received = new Map<number, Buffer[]>();
  port = 0;

  /** Binds an ephemeral port on loopback. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#socket.bind(0, '127.0.0.1', resolve));
    this.port = this.#socket.address().port;
    this.#socket.on('message', (message, from) => this.#onMessage(message, from));
    return this.port;
  }

  #onMessage(message: Buffer, from: dgram.RemoteInfo): void {
    if (message.length === 74 && message.readUInt16BE(0) === 1) {
      const answer = Buffer.alloc(74);
      answer.writeUInt16BE(2, 0);
      answer.writeUInt16BE(70, 2);
      answer.writeUInt32BE(message.readUInt32BE(4), 4);
      answer.write(from.address, 8, 'ascii');
      answer.writeUInt16BE(from.port, 72);
      this.#clients.set(`${from.address}:${from.port}`, { address: from.address, port: from.port });
      this.#socket.send(answer, from.port, from.address);
      return;
    }
    const list = this.received.get(from.port) ?? [];
    list.push(message);
    this.received.set(from.port, list);
    for (const [key, client] of this.#clients) {
      if (key !== `${from.address}:${from.port}`) this.#socket.send(message, client.port, client.address);
    }
  }

  /** Sends raw bytes from the server's own address (so they pass the transport's source check). */
  send(bytes: Uint8Array, port: number): Promise<void> {
    return new Promise((resolve) => this.#socket.send(bytes, port, '127.0.0.1', () => resolve()));
  }

  /** Closes the socket. */
  close(): Promise<void> {
    return new Promise((resolve) => this.#socket.close(() => resolve()));
  }
}

/** Polls `check` every 10 ms until it is true; throws after `timeoutMs` (a hang, not a speed check). */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves after `ms` of event-loop time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

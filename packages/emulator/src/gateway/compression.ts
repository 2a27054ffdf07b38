import { constants, createDeflate, type Deflate } from 'node:zlib';

/** Turns outgoing JSON text into WebSocket frames. */
export interface FrameEncoder {
  /** The frame for one gateway message; encoders that keep state must be called in send order. */
  encode(text: string): Promise<string | Buffer>;
  /** Frees resources. */
  close(): void;
}

/** No transport compression: JSON text frames. */
export class PlainEncoder implements FrameEncoder {
  encode(text: string): Promise<string> {
    return Promise.resolve(text);
  }

  close(): void {
    // Nothing to free.
  }
}

/**
 * `compress=zlib-stream` (reference §1.9): one deflate context per connection; every message is flushed
 * with Z_SYNC_FLUSH, so each binary frame ends with `00 00 ff ff` and the client inflates it with its own
 * single shared context.
 */
export class ZlibStreamEncoder implements FrameEncoder {
  readonly #deflate: Deflate = createDeflate();
  #chunks: Buffer[] = [];

  constructor() {
    // Flowing mode: output leaves the stream as it is made, so a large message cannot stall on backpressure.
    this.#deflate.on('data', (chunk: Buffer) => {
      this.#chunks.push(chunk);
    });
    this.#deflate.on('error', () => {
      // Only possible after close(); the connection is gone by then.
    });
  }

  encode(text: string): Promise<Buffer> {
    return new Promise((resolve) => {
      this.#deflate.write(text);
      // zlib finishes a flush after it has pushed the flushed output, and writes are processed in order.
      this.#deflate.flush(constants.Z_SYNC_FLUSH, () => {
        const frame = Buffer.concat(this.#chunks);
        this.#chunks = [];
        resolve(frame);
      });
    });
  }

  close(): void {
    this.#deflate.destroy();
  }
}

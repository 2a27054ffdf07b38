// The IPC frame of the local desktop client's RPC (wire-protocols §3.2): the SDK's IpcTransport writes and
// reads it as the game, the emulator's local client as the desktop client.

import { JsonBoundsError, MAX_JSON_DEPTH, parseBoundedJson } from './base/boundedJson.js';

/** IPC frame opcodes (wire-protocols §3.2). */
export enum RpcOpcode {
  Handshake = 0,
  Frame = 1,
  Close = 2,
  Ping = 3,
  Pong = 4,
}

const OPCODES: ReadonlyMap<number, RpcOpcode> = new Map(
  [RpcOpcode.Handshake, RpcOpcode.Frame, RpcOpcode.Close, RpcOpcode.Ping, RpcOpcode.Pong].map((op) => [
    op as number,
    op,
  ]),
);

/** The opcode with this wire value, or undefined for a value the protocol does not define. */
export function rpcOpcodeFrom(value: number): RpcOpcode | undefined {
  return OPCODES.get(value);
}

/** Header: u32 LE opcode, u32 LE length. */
export const RPC_HEADER_BYTES = 8;
/** Largest frame, header included, as the platform's own RPC library allows. */
export const RPC_MAX_FRAME_BYTES = 64 * 1024;

/** One decoded frame: its opcode and parsed JSON body (`null` for an empty body). */
export interface RpcFrame {
  op: RpcOpcode;
  body: unknown;
}

/** Why a byte stream cannot be decoded; the peer gets the matching CLOSE and the socket is dropped. */
export class RpcFrameError extends Error {
  /** `'too_large'`, `'unknown_opcode'` or `'bad_json'`. */
  readonly reason: 'too_large' | 'unknown_opcode' | 'bad_json';
  constructor(reason: RpcFrameError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
  override get name(): string {
    return `RpcFrameError[${this.reason}]`;
  }
}

/** Encodes one frame. Throws {@link RpcFrameError} when it would exceed {@link RPC_MAX_FRAME_BYTES}. */
export function encodeRpcFrame(op: RpcOpcode, body: unknown): Buffer {
  const json = body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body), 'utf8');
  if (RPC_HEADER_BYTES + json.length > RPC_MAX_FRAME_BYTES) {
    throw new RpcFrameError(
      'too_large',
      `an RPC frame of ${RPC_HEADER_BYTES + json.length} bytes exceeds ${RPC_MAX_FRAME_BYTES}`,
    );
  }
  const frame = Buffer.allocUnsafe(RPC_HEADER_BYTES + json.length);
  frame.writeUInt32LE(op, 0);
  frame.writeUInt32LE(json.length, 4);
  json.copy(frame, RPC_HEADER_BYTES);
  return frame;
}

/**
 * Reassembles frames from a stream socket, which may split one frame across reads or join several in one.
 * The declared length is checked before anything is buffered for it, so a hostile peer cannot make it
 * allocate more than one frame's limit.
 */
export class RpcFrameDecoder {
  #pending: Buffer = Buffer.alloc(0);

  /** Bytes held for a frame that has not fully arrived. */
  get buffered(): number {
    return this.#pending.length;
  }

  /** Feeds received bytes; returns every frame completed by them, in order. Throws {@link RpcFrameError}. */
  push(chunk: Uint8Array): RpcFrame[] {
    this.#pending = this.#pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.#pending, chunk]);
    const frames: RpcFrame[] = [];
    while (this.#pending.length >= RPC_HEADER_BYTES) {
      const value = this.#pending.readUInt32LE(0);
      const length = this.#pending.readUInt32LE(4);
      if (RPC_HEADER_BYTES + length > RPC_MAX_FRAME_BYTES) {
        throw new RpcFrameError('too_large', `the peer announced an RPC frame of ${length} bytes`);
      }
      const op = rpcOpcodeFrom(value);
      if (op === undefined) throw new RpcFrameError('unknown_opcode', `unknown RPC opcode ${value}`);
      if (this.#pending.length < RPC_HEADER_BYTES + length) break;
      const text = this.#pending.toString('utf8', RPC_HEADER_BYTES, RPC_HEADER_BYTES + length);
      this.#pending = this.#pending.subarray(RPC_HEADER_BYTES + length);
      let body: unknown = null;
      if (length > 0) {
        try {
          body = parseBoundedJson(text);
        } catch (error) {
          // Depth is bounded for the same reason as length: whatever the peer sends is kept and walked later.
          const deep = error instanceof JsonBoundsError && error.problem === 'too_deep';
          throw new RpcFrameError(
            'bad_json',
            deep
              ? `an RPC frame body nests deeper than ${MAX_JSON_DEPTH} levels`
              : 'an RPC frame body is not valid JSON',
          );
        }
      }
      frames.push({ op, body });
    }
    return frames;
  }
}

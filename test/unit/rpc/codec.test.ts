import { describe, expect, it } from 'vitest';

import vectors from '../../vectors/rpc-frames.json' with { type: 'json' };
import {
  RPC_MAX_FRAME_BYTES,
  RpcFrameDecoder,
  RpcFrameError,
  RpcOpcode,
  encodeRpcFrame,
  rpcOpcodeFrom,
} from '../../../packages/protocol/src/rpcFrame.js';

describe('RPC frame codec', () => {
  it.each(vectors.frames)('encodes the $name vector byte for byte', ({ op, json, header }) => {
    const opcode = rpcOpcodeFrom(op);
    if (opcode === undefined) throw new Error(`vector has an unknown opcode ${op}`);
    const frame = encodeRpcFrame(opcode, JSON.parse(json));
    expect(frame.subarray(0, 8).toString('hex')).toBe(header);
    expect(frame.subarray(8).toString('utf8')).toBe(json);
  });

  it('decodes frames split at every byte boundary and frames joined in one read', () => {
    const a = encodeRpcFrame(RpcOpcode.Frame, { cmd: 'DISPATCH', evt: 'READY' });
    const b = encodeRpcFrame(RpcOpcode.Ping, 'nonce-1');
    const c = encodeRpcFrame(RpcOpcode.Pong, undefined);
    const stream = Buffer.concat([a, b, c]);
    for (let split = 0; split <= stream.length; split++) {
      const decoder = new RpcFrameDecoder();
      const frames = [...decoder.push(stream.subarray(0, split)), ...decoder.push(stream.subarray(split))];
      expect(frames).toEqual([
        { op: RpcOpcode.Frame, body: { cmd: 'DISPATCH', evt: 'READY' } },
        { op: RpcOpcode.Ping, body: 'nonce-1' },
        { op: RpcOpcode.Pong, body: null },
      ]);
      expect(decoder.buffered).toBe(0);
    }
  });

  it('rejects an announced length over 64 KiB before buffering it', () => {
    const header = Buffer.alloc(8);
    header.writeUInt32LE(RpcOpcode.Frame, 0);
    header.writeUInt32LE(0xffffffff, 4);
    const decoder = new RpcFrameDecoder();
    expect(() => decoder.push(header)).toThrow(RpcFrameError);
    expect(() => new RpcFrameDecoder().push(header)).toThrow(/announced/);
  });

  it('accepts a frame of exactly the limit and refuses to encode one byte more', () => {
    const overhead = Buffer.byteLength(JSON.stringify('')) + 8;
    const fits = 'x'.repeat(RPC_MAX_FRAME_BYTES - overhead);
    const frame = encodeRpcFrame(RpcOpcode.Frame, fits);
    expect(frame.length).toBe(RPC_MAX_FRAME_BYTES);
    expect(new RpcFrameDecoder().push(frame)).toEqual([{ op: RpcOpcode.Frame, body: fits }]);
    expect(() => encodeRpcFrame(RpcOpcode.Frame, `${fits}x`)).toThrow(RpcFrameError);
  });

  it('rejects unknown opcodes and bad JSON with a typed reason', () => {
    const unknown = Buffer.from('0900000000000000', 'hex');
    expect(() => new RpcFrameDecoder().push(unknown)).toThrow(
      expect.objectContaining({ reason: 'unknown_opcode' }) as Error,
    );
    const bad = Buffer.concat([Buffer.from('0100000003000000', 'hex'), Buffer.from('{x}')]);
    expect(() => new RpcFrameDecoder().push(bad)).toThrow(
      expect.objectContaining({ reason: 'bad_json' }) as Error,
    );
  });

  it('rejects a body nested past 32 levels before anything is built from it', () => {
    const frame = (json: string): Buffer => {
      const header = Buffer.alloc(8);
      header.writeUInt32LE(RpcOpcode.Frame, 0);
      header.writeUInt32LE(Buffer.byteLength(json), 4);
      return Buffer.concat([header, Buffer.from(json)]);
    };
    const deep = `{"cmd":"SET_ACTIVITY","args":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(() => new RpcFrameDecoder().push(frame(deep))).toThrow(
      expect.objectContaining({
        reason: 'bad_json',
        message: 'an RPC frame body nests deeper than 32 levels',
      }) as Error,
    );
    const fine = `{"a":${'['.repeat(30)}${']'.repeat(30)}}`;
    expect(new RpcFrameDecoder().push(frame(fine))).toHaveLength(1);
  });
});

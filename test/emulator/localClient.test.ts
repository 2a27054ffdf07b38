import { statSync, existsSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RpcOpcode, encodeRpcFrame } from '../../packages/protocol/src/rpcFrame.js';
import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { Peer } from './rpcPeer.js';

describe('the emulated desktop client (RPC over IPC)', () => {
  let emu: Emulator;
  let socketPath: string;
  beforeAll(async () => {
    emu = await startEmulator({ users: 2, autoConsent: true });
    socketPath = emu.rpcSocket ?? '';
  });
  afterAll(async () => {
    await emu.close();
  });

  it('listens on an owner-only discord-ipc-0 and sends READY after the handshake', async () => {
    expect(path.basename(socketPath)).toBe('discord-ipc-0');
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
    const peer = new Peer(socketPath);
    const ready = await peer.handshake(emu.applicationId);
    expect(ready.op).toBe(RpcOpcode.Frame);
    expect(ready.body).toMatchObject({
      cmd: 'DISPATCH',
      evt: 'READY',
      nonce: null,
      data: {
        v: 1,
        config: { cdn_host: 'cdn.discordapp.com' },
        user: { username: 'alice', discriminator: '0' },
      },
    });
    expect(emu.rpcConnectionCount()).toBe(1);
    peer.send(RpcOpcode.Ping, 'ping-123');
    expect(await peer.next((f) => f.op === RpcOpcode.Pong)).toEqual({ op: RpcOpcode.Pong, body: 'ping-123' });
    peer.socket.end();
    await peer.ended;
  });

  it('refuses a wrong client id (4000) and version (4004) with CLOSE', async () => {
    const wrongId = new Peer(socketPath);
    expect(await wrongId.handshake('123456789012345678')).toEqual({
      op: RpcOpcode.Close,
      body: { code: 4000, message: 'Invalid Client ID' },
    });
    await wrongId.ended;
    const noId = new Peer(socketPath);
    noId.send(RpcOpcode.Handshake, { v: 1 });
    expect((await noId.next()).body).toEqual({ code: 4000, message: 'No Client ID Specified' });
    const badVersion = new Peer(socketPath);
    badVersion.send(RpcOpcode.Handshake, { v: 2, client_id: emu.applicationId });
    expect((await badVersion.next()).body).toMatchObject({ code: 4004 });
    await badVersion.ended;
  });

  it('closes hostile peers with 1003 and keeps serving others', async () => {
    const hostile: Buffer[] = [];
    const oversized = Buffer.alloc(8);
    oversized.writeUInt32LE(RpcOpcode.Handshake, 0);
    oversized.writeUInt32LE(0xfffffff0, 4);
    hostile.push(oversized);
    const badJson = Buffer.from('{not json');
    const badJsonFrame = Buffer.alloc(8 + badJson.length);
    badJsonFrame.writeUInt32LE(RpcOpcode.Handshake, 0);
    badJsonFrame.writeUInt32LE(badJson.length, 4);
    badJson.copy(badJsonFrame, 8);
    hostile.push(badJsonFrame);
    const unknownOp = Buffer.alloc(8);
    unknownOp.writeUInt32LE(77, 0);
    hostile.push(unknownOp);
    hostile.push(encodeRpcFrame(RpcOpcode.Frame, { cmd: 'SET_ACTIVITY', args: {}, nonce: 'x' }));
    for (const bytes of hostile) {
      const peer = new Peer(socketPath);
      peer.socket.write(bytes);
      const close = await peer.next();
      expect(close.op).toBe(RpcOpcode.Close);
      expect((close.body as { code: number }).code).toBe(1003);
      await peer.ended;
    }
    // A second handshake and a command without a nonce are violations too.
    const twice = new Peer(socketPath);
    await twice.handshake(emu.applicationId);
    twice.send(RpcOpcode.Handshake, { v: 1, client_id: emu.applicationId });
    expect(((await twice.next()).body as { code: number }).code).toBe(1003);
    const noNonce = new Peer(socketPath);
    await noNonce.handshake(emu.applicationId);
    noNonce.send(RpcOpcode.Frame, { cmd: 'SUBSCRIBE', args: {} });
    expect(((await noNonce.next()).body as { code: number }).code).toBe(1003);

    const good = new Peer(socketPath);
    expect((await good.handshake(emu.applicationId)).body).toMatchObject({ evt: 'READY' });
    good.socket.end();
  });

  it('reassembles split and coalesced frames', async () => {
    const peer = new Peer(socketPath);
    const bytes = Buffer.concat([
      encodeRpcFrame(RpcOpcode.Handshake, { v: 1, client_id: emu.applicationId }),
      encodeRpcFrame(RpcOpcode.Ping, 1),
      encodeRpcFrame(RpcOpcode.Ping, 2),
    ]);
    for (let i = 0; i < bytes.length; i += 5) {
      peer.socket.write(bytes.subarray(i, i + 5));
      await new Promise((r) => setTimeout(r, 1));
    }
    expect((await peer.next()).body).toMatchObject({ evt: 'READY' });
    expect(await peer.next()).toEqual({ op: RpcOpcode.Pong, body: 1 });
    expect(await peer.next()).toEqual({ op: RpcOpcode.Pong, body: 2 });
    peer.socket.end();
  });

  it('runs SET_ACTIVITY, SUBSCRIBE, AUTHORIZE and AUTHENTICATE, and errors for the rest', async () => {
    const peer = new Peer(socketPath);
    await peer.handshake(emu.applicationId);
    const set = await peer.command('SET_ACTIVITY', { pid: 1, activity: { type: 0, state: 'In lobby' } });
    expect(set).toMatchObject({
      cmd: 'SET_ACTIVITY',
      evt: null,
      data: { state: 'In lobby', name: 'sdkpp Demo Game' },
    });
    expect(emu.rpcActivity()).toMatchObject({ state: 'In lobby', application_id: emu.applicationId });
    expect(emu.presenceOf('alice').activities).toEqual([expect.objectContaining({ state: 'In lobby' })]);
    const streaming = await peer.command('SET_ACTIVITY', { pid: 1, activity: { type: 1, name: 'x' } });
    expect(streaming).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
    const short = await peer.command('SET_ACTIVITY', { pid: 1, activity: { type: 0, state: 'x' } });
    expect(short).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
    expect((await peer.command('SET_ACTIVITY', { pid: 1, activity: null })).data).toBeNull();
    expect(emu.rpcActivity()).toBeNull();

    expect(await peer.command('SUBSCRIBE', {}, 'ACTIVITY_JOIN')).toMatchObject({
      data: { evt: 'ACTIVITY_JOIN' },
    });
    expect(await peer.command('SUBSCRIBE', {}, 'NOPE')).toMatchObject({ evt: 'ERROR', data: { code: 4004 } });
    expect(emu.rpcDispatch('ACTIVITY_JOIN', { secret: 's3' })).toBe(1);
    expect(await peer.next((f) => (f.body as { evt?: unknown }).evt === 'ACTIVITY_JOIN')).toMatchObject({
      body: { cmd: 'DISPATCH', data: { secret: 's3' }, nonce: null },
    });
    expect(emu.rpcDispatch('ACTIVITY_JOIN_REQUEST', {})).toBe(0);

    expect(await peer.command('FLY_TO_MOON', {})).toMatchObject({ evt: 'ERROR', data: { code: 4002 } });
    expect(await peer.command('AUTHENTICATE', { access_token: 'nope' })).toMatchObject({
      data: { code: 4009 },
    });
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const authorized = await peer.command('AUTHORIZE', {
      client_id: emu.applicationId,
      scopes: ['openid', 'sdk.social_layer'],
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const code = (authorized.data as { code?: unknown }).code;
    expect(typeof code).toBe('string');
    // The code has no redirect URI: the token request leaves it out.
    const token = await fetch(`${emu.api}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: emu.applicationId,
        code: String(code),
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      }).toString(),
    });
    expect(token.status).toBe(200);
    const accessToken = ((await token.json()) as { access_token: string }).access_token;
    expect(await peer.command('AUTHENTICATE', { access_token: accessToken })).toMatchObject({
      data: { user: { username: 'alice' }, scopes: ['openid', 'sdk.social_layer'] },
    });
    expect(
      await peer.command('AUTHORIZE', {
        client_id: '1',
        scopes: ['identify'],
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    ).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
    expect(
      await peer.command('AUTHORIZE', {
        client_id: emu.applicationId,
        scopes: ['identify'],
        code_challenge_method: 'plain',
      }),
    ).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });

    expect(await peer.command('SEND_ACTIVITY_JOIN_INVITE', { user_id: emu.users[1]?.id })).toMatchObject({
      data: null,
    });
    expect(emu.rpcCommands()).toEqual([
      { cmd: 'SEND_ACTIVITY_JOIN_INVITE', args: { user_id: emu.users[1]?.id } },
    ]);
    peer.socket.end();
    await peer.ended;
  });

  it('can be turned off, bound to another user, and removes its socket on close', async () => {
    const off = await startEmulator({ rpc: false });
    expect(off.rpcSocket).toBeNull();
    expect((JSON.parse(JSON.stringify(off)) as { rpcSocket: unknown }).rpcSocket).toBeNull();
    await off.close();
    const bobs = await startEmulator({ rpc: { user: 'bob' } });
    const peer = new Peer(bobs.rpcSocket ?? '');
    expect((await peer.handshake(bobs.applicationId)).body).toMatchObject({
      data: { user: { username: 'bob' } },
    });
    const socket = bobs.rpcSocket ?? '';
    await bobs.close();
    await peer.ended;
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(path.dirname(socket))).toBe(false);
    await expect(startEmulator({ rpc: { user: 'nobody' } })).rejects.toThrow(RangeError);
  });
});

import { createServer, type Server } from 'node:net';

import { describe, expect, it } from 'vitest';

import { ClientError, ClientStatus, NetworkError } from '../../packages/sdkpp/src/index.js';
import { clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

describe('gateway connection', () => {
  it('resumes after the emulator drops the socket, replaying every dispatch in order', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const events: string[] = [];
    const statuses: ClientStatus[] = [];
    player.client.on('dispatch', (t, d) =>
      events.push(t === 'TEST_EVENT' ? `TEST_EVENT:${String((d as { n: number }).n)}` : t),
    );
    player.client.on('statusChanged', (s) => statuses.push(s));
    const sessionBefore = emulator.gatewaySessions()[0]?.sessionId;

    expect(emulator.dropGatewayConnections()).toBe(1);
    for (let n = 1; n <= 5; n++) emulator.dispatch(player.user.id, 'TEST_EVENT', { n });
    emulator.updateUser(player.user.id, { globalName: 'Alice While Away' });

    await eventually(() => events.includes('RESUMED'), 5_000, 'RESUMED');
    expect(events).toEqual([
      'TEST_EVENT:1',
      'TEST_EVENT:2',
      'TEST_EVENT:3',
      'TEST_EVENT:4',
      'TEST_EVENT:5',
      'USER_UPDATE',
      'RESUMED',
    ]);
    expect(statuses).toEqual([ClientStatus.Reconnecting, ClientStatus.Connected, ClientStatus.Ready]);
    expect(emulator.gatewaySessions()[0]?.sessionId).toBe(sessionBefore);
    expect(player.client.getCurrentUser()?.displayName).toBe('Alice While Away');

    emulator.dispatch(player.user.id, 'TEST_EVENT', { n: 6 });
    await eventually(() => events.includes('TEST_EVENT:6'));
  });

  it('a bad token gets close code 4004 and the client stops: Disconnected, no reconnect', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    await player.client.disconnect();
    emulator.revokeUserTokens(player.user.id);
    const statuses: Array<[ClientStatus, ClientError, number]> = [];
    player.client.on('statusChanged', (s, e, d) => statuses.push([s, e, d]));
    await expect(player.client.connect()).rejects.toThrow(/refused the token \(close code 4004/);
    expect(statuses.at(-1)).toEqual([ClientStatus.Disconnected, ClientError.UnexpectedClose, 4004]);
    await new Promise((r) => setTimeout(r, 300));
    expect(player.client.getStatus()).toBe(ClientStatus.Disconnected);
    expect(emulator.gatewaySessions()).toHaveLength(0);
  });

  it.each([4004, 4010, 4011, 4012, 4013, 4014])(
    'a terminal close code %i while Ready stops reconnecting',
    async (code) => {
      const emulator = await emulatorFor();
      const player = await linkAndConnect(emulator, userAt(emulator, 0));
      expect(emulator.closeGatewayConnections(code, 'test')).toBe(1);
      await eventually(() => player.client.getStatus() === ClientStatus.Disconnected);
      await new Promise((r) => setTimeout(r, 200));
      expect(player.client.getStatus()).toBe(ClientStatus.Disconnected);
      expect(emulator.gatewaySessions().filter((s) => s.connected)).toHaveLength(0);
    },
  );

  it('revoking the token while connected ends the session with 4004', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const details: number[] = [];
    player.client.on('statusChanged', (_s, _e, d) => details.push(d));
    await player.client.revokeToken({ token: player.accessToken });
    await eventually(() => player.client.getStatus() === ClientStatus.Disconnected);
    expect(details).toContain(4004);
  });

  it.each([4000, 4002, 4008, 4009])('a non-terminal close %i is followed by a new Ready', async (code) => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const statuses: ClientStatus[] = [];
    player.client.on('statusChanged', (s) => statuses.push(s));
    emulator.closeGatewayConnections(code);
    await eventually(() => statuses.at(-1) === ClientStatus.Ready, 5_000, 'Ready again');
    expect(statuses[0]).toBe(ClientStatus.Reconnecting);
    expect(player.client.getCurrentUser()?.id).toBe(player.user.id);
  });

  it('op 7 Reconnect is followed by a resume of the same session', async () => {
    const emulator = await emulatorFor();
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const events: string[] = [];
    player.client.on('dispatch', (t) => events.push(t));
    const session = emulator.gatewaySessions()[0]?.sessionId;
    expect(emulator.sendGatewayReconnect()).toBe(1);
    await eventually(() => events.includes('RESUMED'));
    expect(emulator.gatewaySessions()[0]?.sessionId).toBe(session);
  });

  it('heartbeats keep a Ready session alive across several intervals', async () => {
    const emulator = await emulatorFor({ heartbeatIntervalMs: 100 });
    const player = await linkAndConnect(emulator, userAt(emulator, 0));
    const statuses: ClientStatus[] = [];
    player.client.on('statusChanged', (s) => statuses.push(s));
    await new Promise((r) => setTimeout(r, 700));
    expect(statuses).toEqual([]);
    expect(player.client.getStatus()).toBe(ClientStatus.Ready);
  });
});

describe('HTTP timeouts', () => {
  it('a response that never arrives is a NetworkError after the timeout, never a success', async () => {
    const sockets: Array<import('node:net').Socket> = [];
    const blackHole: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
    const { port } = blackHole.address() as import('node:net').AddressInfo;
    const emulator = await emulatorFor();
    const client = clientFor(emulator, { apiBase: `http://127.0.0.1:${port}/api/v10` });
    client.setHttpRequestTimeout(200);
    expect(client.getHttpRequestTimeout()).toBe(200);
    const started = Date.now();
    const error = await client.fetchCurrentUser('some-token-value-123').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    sockets.forEach((s) => s.destroy());
    await new Promise<void>((r) => blackHole.close(() => r()));
  });
});

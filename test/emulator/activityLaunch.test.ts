import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';

import {
  createInteractionsHandler,
  InteractionCallbackType,
} from '../../packages/sdkpp/src/backend/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { HostSocket } from './activityHostHelpers.js';
import { call, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running, cleanups } = closeAfterEach();

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function general(emu: Emulator): string {
  return emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
}

async function command(emu: Emulator, body: Record<string, unknown>): Promise<void> {
  const made = await call(
    emu,
    `Bot ${emu.botToken}`,
    'POST',
    `/applications/${emu.applicationId}/commands`,
    body,
  );
  expect(made.status).toBe(201);
}

describe('launching the Activity from interactions', () => {
  it('an entry point with DISCORD_LAUNCH_ACTIVITY launches without asking the app, and the platform posts its follow-up', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, applicationName: 'Catch the Star' });
    let delivered = 0;
    const url = await listen(
      createServer(
        createInteractionsHandler({
          publicKey: emu.applicationPublicKey,
          onInteraction: () => {
            delivered += 1;
            return { type: InteractionCallbackType.Pong };
          },
        }),
      ),
    );
    await emu.setInteractionsEndpointUrl(url);
    await command(emu, { type: 4, name: 'launch', description: 'Play Catch the Star', handler: 2 });
    const pings = delivered;
    const launched = await emu.invokeCommand({
      user: 'alice',
      command: 'launch',
      type: 4,
      channel: general(emu),
    });
    expect(launched.responseType).toBe(12);
    expect(launched.delivery).toContain('DISCORD_LAUNCH_ACTIVITY');
    expect(delivered).toBe(pings);
    expect(launched.activity?.instanceId).toMatch(/^i-\d+-gc-\d+-\d+$/);
    // The platform's follow-up message is in the channel: the app's, on the invocation, naming the launcher.
    const history = await call(emu, `Bot ${emu.botToken}`, 'GET', `/channels/${general(emu)}/messages`);
    const followUp = (history.json as Record<string, unknown>[]).find(
      (m) => (m.interaction_metadata as { id?: string } | undefined)?.id === launched.id,
    );
    expect(followUp).toMatchObject({
      author: { bot: true },
      interaction_metadata: { type: 2, user: { id: emu.users[0]?.id } },
      embeds: [{ title: 'Catch the Star' }],
    });
    expect((followUp?.embeds as { description: string }[])[0]?.description).toContain(
      `<@${emu.users[0]?.id}> launched`,
    );
    // The launch link is a working host page: the frame opens in that instance.
    const host = await HostSocket.open(emu, launched.activity?.url ?? '');
    expect((await host.place()).get('instance_id')).toBe(launched.activity?.instanceId);
    // Bob's launch from the same channel joins Alice's instance.
    const bob = await emu.invokeCommand({ user: 'bob', command: 'launch', type: 4, channel: general(emu) });
    expect(bob.activity?.instanceId).toBe(launched.activity?.instanceId);
  });

  it('APP_HANDLER entry points, commands, buttons and modals launch when the app answers LAUNCH_ACTIVITY (12)', async () => {
    const { emu } = await loggedEmulator(running, { users: 2 });
    const url = await listen(
      createServer(
        createInteractionsHandler({
          publicKey: emu.applicationPublicKey,
          onInteraction: (interaction) => {
            if (interaction.type === 1) return { type: InteractionCallbackType.Pong };
            const data = interaction.data as { name?: string; custom_id?: string };
            if (data.name === 'menu') {
              return {
                type: InteractionCallbackType.ChannelMessageWithSource,
                data: {
                  content: 'Ready?',
                  components: [
                    { type: 1, components: [{ type: 2, style: 1, label: 'Play', custom_id: 'play' }] },
                  ],
                },
              };
            }
            return { type: InteractionCallbackType.LaunchActivity };
          },
        }),
      ),
    );
    await emu.setInteractionsEndpointUrl(url);
    await command(emu, { type: 4, name: 'launch', description: 'Play', handler: 1 });
    await command(emu, { name: 'menu', description: 'Show the menu' });

    const entry = await emu.invokeCommand({
      user: 'alice',
      command: 'launch',
      type: 4,
      channel: general(emu),
    });
    expect(entry.delivery).toBe('http 200');
    expect(entry.responseType).toBe(12);
    expect(entry.activity?.url).toContain('/.emulator/activity?ticket=');

    const menu = await emu.invokeCommand({ user: 'bob', command: 'menu', channel: general(emu) });
    expect(menu.activity).toBeNull();
    const click = await emu.clickComponent({
      user: 'bob',
      message: menu.originalMessageId ?? '',
      customId: 'play',
    });
    expect(click.responseType).toBe(12);
    expect(click.activity?.instanceId).toBe(entry.activity?.instanceId);
    expect(emu.interactions().find((i) => i.id === click.id)?.activity?.instanceId).toBe(
      entry.activity?.instanceId,
    );
  });
});

describe('WebSockets through the Activity proxy', () => {
  it('upgrades with and without the /.proxy prefix, and refuses unmapped or unreachable targets with a log line', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 1 });
    const game = createServer((_req, res) => res.writeHead(426).end());
    const sockets = new WebSocketServer({ server: game });
    sockets.on('connection', (ws, req) => {
      ws.on('message', (data: Buffer) => ws.send(`${req.url ?? ''} ${data.toString('utf8')}`));
    });
    const target = await listen(game);
    emu.setActivityUrlMappings([{ prefix: '/api', target }]);
    const port = new URL(emu.http).port;
    const host = new URL(emu.activityUrl).host;
    const through = (path: string): Promise<WebSocket> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: { host } });
        ws.once('open', () => resolve(ws));
        ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
        ws.once('error', reject);
      });
    for (const path of ['/.proxy/api/play?room=1', '/api/play?room=1']) {
      const ws = await through(path);
      const echoed = new Promise<string>((resolve) =>
        ws.once('message', (d: Buffer) => resolve(d.toString())),
      );
      ws.send('hello');
      expect(await echoed).toBe('/play?room=1 hello');
      ws.close();
    }
    await expect(through('/elsewhere')).rejects.toThrow('refused with 404');
    emu.setActivityUrlMappings([{ prefix: '/api', target: 'http://127.0.0.1:1' }]);
    await expect(through('/api/play')).rejects.toThrow('refused with 502');
    expect(logs.some((l) => l.includes('proxy: no URL mapping for upgrade /elsewhere'))).toBe(true);
    expect(logs.some((l) => l.includes('proxy: upgrade /api/play failed'))).toBe(true);
  });
});

import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import {
  createInteractionsHandler,
  createWebhookEventsHandler,
  InteractionCallbackType,
} from '../../packages/sdkpp/src/backend/index.js';
import {
  ActivityPartyPrivacy,
  ActivityTypes,
  CallStatus,
  RelationshipType,
} from '../../packages/sdkpp/src/index.js';
import { bothInCall, tempDir, writeToneWav } from '../integration/callHelpers.js';
import { emulatorFor, eventually, linkAndConnect, userAt } from '../integration/helpers.js';
import { sharedChromium } from '../setup/browser.js';

const SCREENSHOT = path.join('test-artifacts', 'dashboard.png');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const browser = sharedChromium();

/** Opens a page that records script errors and policy violations (Chromium reports both on the console). */
async function openPage(url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  await page.locator('#live.on').waitFor({ timeout: 10_000 });
  return { page, problems };
}

/** The text of an element, once it matches; fails with `what` after the timeout. */
async function textOf(page: Page, selector: string, match: RegExp, what: string): Promise<string> {
  const locator = page.locator(selector).filter({ hasText: match }).first();
  await locator.waitFor({ timeout: 10_000 }).catch(() => {
    throw new Error(`the dashboard never showed ${what} (${selector} matching ${String(match)})`);
  });
  return locator.innerText();
}

describe('the emulator dashboard in Chromium', () => {
  it('shows players, presence, friends, a lobby, a message and a call live, and its buttons act', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const { page, problems } = await openPage(emulator.dashboard);
    await textOf(page, '#users tbody tr', /@alice/, 'alice before anyone connects');
    await expect(page.locator('#calls').innerText()).resolves.toContain('No calls.');

    // Everything below arrives over the event stream: the page is never reloaded.
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const aliceRow = `#users tr[data-user-id="${alice.user.id}"]`;
    const bobRow = `#users tr[data-user-id="${bob.user.id}"]`;
    await textOf(page, `${aliceRow} [data-status]`, /online/, 'Alice online');
    await textOf(page, `${bobRow} [data-status]`, /online/, 'Bob online');

    await alice.client.sendDiscordFriendRequest('bob');
    await textOf(page, `${bobRow} .rel-incoming`, /alice/, 'Bob’s incoming request');
    await eventually(
      () =>
        bob.client.getRelationshipHandle(alice.user.id).discordRelationshipType ===
        RelationshipType.PendingIncoming,
    );
    await bob.client.acceptDiscordFriendRequest(alice.user.id);
    await textOf(page, `${aliceRow} .rel-friends`, /bob/, 'Alice and Bob as friends');
    await bob.client.updateRichPresence({
      type: ActivityTypes.Playing,
      details: 'Harbour map',
      party: { id: 'party-7', currentSize: 2, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
    });
    await textOf(page, `${bobRow} .activity`, /Harbour map.*party 2\/4/, 'Bob’s activity');

    const lobbyId = await alice.client.createOrJoinLobby('browser-lobby', { mode: 'coop' });
    await bob.client.createOrJoinLobby('browser-lobby');
    const lobby = `#lobbies [data-lobby-id="${lobbyId}"]`;
    await textOf(page, `${lobby} .members`, /bob/, 'both members in the lobby');
    await textOf(page, lobby, /mode=coop/, 'the lobby metadata');
    await alice.client.sendLobbyMessage(lobbyId, 'ready when you are');
    await textOf(page, `${lobby} .messages`, /alice\s*ready when you are/, 'the lobby message');
    await textOf(
      page,
      '#log',
      /\[http\]\s*POST \/lobbies\/:lobby_id\/messages 201/,
      'the request in the log',
    );

    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    // The log names users by their username where the server's line has their id.
    await textOf(page, '#log', /user @bob joined the call of lobby \d+/, 'a voice line with a name');
    await eventually(() => aliceCall.getPrivacyCode() !== '', 10_000, 'the DAVE group');
    await eventually(() => bobCall.getPrivacyCode() === aliceCall.getPrivacyCode(), 10_000, 'one epoch');
    const call = `#calls [data-call-id="${lobbyId}"]`;
    await textOf(page, `${call} [data-participant-id="${bob.user.id}"]`, /bob/, 'Bob in the call');
    await textOf(page, `${call} [data-participant-id="${alice.user.id}"]`, /alice/, 'Alice in the call');
    const epoch = String(emulator.voice.calls()[0]?.daveEpoch);
    expect(Number(epoch)).toBeGreaterThan(0);
    await textOf(page, `${call} .dave-epoch`, new RegExp(`^${epoch}$`), `DAVE epoch ${epoch}`);
    await textOf(page, `${call} .dave-version`, /^v1$/, 'DAVE v1');
    const ssrc = emulator.voice.calls()[0]?.participants.find((p) => p.userId === alice.user.id)?.voice?.ssrc;
    await textOf(
      page,
      `${call} [data-participant-id="${alice.user.id}"] .ssrc`,
      new RegExp(`^${ssrc}$`),
      'SSRC',
    );
    // The server cannot know the privacy code; the page says so and shows no code.
    const note = await textOf(page, `${call} .privacy-code`, /Known only to the call members/, 'the note');
    expect(note).not.toContain(aliceCall.getPrivacyCode());

    // Alice talks: a tone into her microphone lights her speaking indicator.
    const tone = path.join(tempDir(), 'tone.wav');
    writeToneWav(tone, { seconds: 20 });
    await alice.client.setInputDevice(`wav-in:${tone}`);
    await textOf(
      page,
      `${call} [data-participant-id="${alice.user.id}"] .speaking-on`,
      /speaking/,
      'speaking',
    );

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const png = readFileSync(SCREENSHOT);
    expect(png.length).toBeGreaterThan(10_000);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    await page.fill('#create-user input[name="username"]', 'zoe');
    await page.fill('#create-user input[name="globalName"]', 'Zoe Tester');
    await page.click('#create-user-button');
    await textOf(page, '#users tbody tr', /Zoe Tester\s*@zoe/, 'the created user');
    await textOf(page, '#notice', /Created zoe/, 'the confirmation');
    expect(emulator.users.map((u) => u.username)).toContain('zoe');

    await page.click(`${call} [data-participant-id="${bob.user.id}"] button[data-action="kick"]`);
    await eventually(() => bobCall.getStatus() === CallStatus.Disconnected, 5000, 'Bob’s call ended');
    await page.locator(`${call} [data-participant-id="${bob.user.id}"]`).waitFor({ state: 'detached' });
    expect(aliceCall.getStatus()).toBe(CallStatus.Connected);
    await textOf(page, '#notice', /bob kicked from the call/, 'the kick confirmation');

    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows the bot's guilds, commands, interactions and webhook deliveries, and invokes a command", async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const servers: Server[] = [];
    const serve = async (handler: RequestListener): Promise<string> => {
      const server = createServer(handler);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    };
    try {
      emulator.setWebhookEventsUrl(
        await serve(
          createWebhookEventsHandler({ publicKey: emulator.applicationPublicKey, onEvent: () => undefined }),
        ),
      );
      await emulator.setInteractionsEndpointUrl(
        await serve(
          createInteractionsHandler({
            publicKey: emulator.applicationPublicKey,
            onInteraction: (i) => ({
              type: InteractionCallbackType.ChannelMessageWithSource,
              data: { content: `score for ${String(i.member?.user?.username)}` },
            }),
          }),
        ),
      );
      const made = await fetch(`${emulator.api}/applications/${emulator.applicationId}/commands`, {
        method: 'POST',
        headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'score', description: 'Show the score' }),
      });
      expect(made.status).toBe(201);
      const { page, problems } = await openPage(emulator.dashboard);
      const guild = emulator.guilds()[0];
      const staff = guild?.channels.find((c) => c.name === 'staff')?.id ?? '';
      await textOf(
        page,
        `#bot-guilds [data-guild-id="${guild?.id ?? ''}"] .bot-in`,
        /the bot is in/,
        'the guild',
      );
      await textOf(
        page,
        `#bot-guilds [data-channel-id="${staff}"]`,
        /staff\s*hidden from the bot/,
        '#staff hidden',
      );
      await textOf(page, '#commands [data-command="score"]', /\/score/, 'the command');

      // Signing in installs the app to alice: the APPLICATION_AUTHORIZED delivery shows.
      await linkAndConnect(emulator, userAt(emulator, 0));
      await textOf(page, '#deliveries tbody tr', /APPLICATION_AUTHORIZED\s*delivered/, 'the delivery');

      const bobId = emulator.users[1]?.id ?? '';
      const general = guild?.channels.find((c) => c.name === 'general')?.id ?? '';
      await page.selectOption('#commands [data-command="score"] select[name="user"]', bobId);
      await page.selectOption('#commands [data-command="score"] select[name="channel"]', general);
      await page.click('#commands [data-command="score"] button[type="submit"]');
      await textOf(page, '#notice', /\/score invoked \(http 200\)/, 'the invocation');
      await textOf(page, '#interactions tbody tr', /score\s*bob\s*http 200\s*message/, 'the interaction row');
      expect(emulator.channelMessages(general).at(-1)?.content).toBe('score for bob');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      for (const server of servers) server.close();
    }
  }, 60_000);

  it('reaches the Activity proxy at <application_id>.localhost, which Chromium sends to loopback', async () => {
    const game = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Tiny Activity</title><h1>hello</h1>');
    });
    await new Promise<void>((resolve) => game.listen(0, '127.0.0.1', resolve));
    try {
      const emulator = await emulatorFor({
        activityUrlMappings: [
          { prefix: '/', target: `http://127.0.0.1:${(game.address() as AddressInfo).port}` },
        ],
      });
      const page = await browser().newPage();
      await page.goto(`${emulator.activityUrl}/.proxy/index.html`);
      expect(await page.title()).toBe('Tiny Activity');
      expect(new URL(page.url()).hostname).toBe(`${emulator.applicationId}.localhost`);
      await page.close();
    } finally {
      game.close();
    }
  }, 30_000);
});

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { allLogLines, allSecrets, emulatorFor, eventually, linkAndConnect } from '../integration/helpers.js';
import { sampleGames, voiceChannel } from './activityHostHelpers.js';
import { sharedChromium } from '../setup/browser.js';

const SECRET = 'catch-the-star-client-secret';

const browser = sharedChromium();
const startGame = sampleGames();

/** A player's client window: the host page of their launch, with script errors recorded. */
async function open(url: string, problems: string[]): Promise<Page> {
  const page = await browser().newPage({ viewport: { width: 1100, height: 700 } });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return page;
}

describe('the real Embedded App SDK in the Activity host (Chromium)', () => {
  it("two players share an instance, authorize in the modal, see each other, and one's setActivity reaches the other's SDK client", async () => {
    const emu = await emulatorFor({ users: 2, clientSecret: SECRET, applicationName: 'Catch the Star' });
    const game = await startGame(emu, SECRET);
    const [alice, bob] = emu.users;
    if (!alice || !bob) throw new Error('two users expected');
    // Bob, Alice's friend, also runs a game built on sdkpp: his SDK client shows her rich presence.
    emu.befriend(alice.username, bob.username);
    const watcher = await linkAndConnect(emu, bob);

    const aliceLaunch = emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) });
    const bobLaunch = emu.launchActivity({ user: 'bob', channel: voiceChannel(emu) });
    expect(bobLaunch.instanceId).toBe(aliceLaunch.instanceId);
    for (const launch of [aliceLaunch, bobLaunch])
      allSecrets.add(new URL(launch.url).searchParams.get('ticket') ?? '');

    const problems: string[] = [];
    const pages = [await open(aliceLaunch.url, problems), await open(bobLaunch.url, problems)];
    for (const page of pages) {
      // The client's OAuth2 modal, in the host page: the application and what it asks for.
      const modal = page.locator('dialog#consent');
      await modal.waitFor({ timeout: 10_000 });
      expect(await modal.innerText()).toContain('Catch the Star wants to access your account');
      expect(await modal.innerText()).toContain('Update your activity from an Activity');
      await page.locator('#authorize').click();
    }
    const [alicePage, bobPage] = pages as [Page, Page];
    const aliceFrame = alicePage.frameLocator('iframe');
    const bobFrame = bobPage.frameLocator('iframe');
    // Each sees the other as a connected participant, and both read the same instance id from the SDK.
    await aliceFrame.locator('#participants li', { hasText: 'Bob' }).waitFor({ timeout: 10_000 });
    await bobFrame.locator('#participants li', { hasText: 'Alice' }).waitFor({ timeout: 10_000 });
    expect(await aliceFrame.locator('#instance').innerText()).toBe(aliceLaunch.instanceId);
    expect(await bobFrame.locator('#instance').innerText()).toBe(aliceLaunch.instanceId);
    expect(await alicePage.locator('#participants li').allInnerTexts()).toEqual(['Alice', 'Bob']);
    // The tips service is another origin: the page reached it through the /tips mapping (patchUrlMappings).
    await aliceFrame.locator('#tip', { hasText: 'star' }).waitFor({ timeout: 5000 });
    expect(await alicePage.locator('#blocked li').count()).toBe(0);

    // The game's own server took the code (exchanged with the secret) and put both in one room.
    await aliceFrame.locator('#scores li', { hasText: 'Bob: 0' }).waitFor({ timeout: 10_000 });
    await aliceFrame.locator('#board button.star').click();
    await bobFrame.locator('#scores li', { hasText: 'Alice: 1' }).waitFor({ timeout: 5000 });
    expect(game.rooms.state(aliceLaunch.instanceId)?.players).toEqual([
      { id: alice.id, name: 'Alice', score: 1 },
      { id: bob.id, name: 'Bob', score: 0 },
    ]);

    // Alice's setActivity (with the 2.1 URL fields) is her rich presence, which Bob's SDK client shows.
    await eventually(
      () => watcher.client.getUser(alice.id)?.gameActivity?.state === '1 of 5 stars',
      10_000,
      "Alice's activity in Bob's SDK client",
    );
    const activity = watcher.client.getUser(alice.id)?.gameActivity;
    expect(activity?.details).toBe('Catching stars');
    expect(activity?.detailsUrl).toBe(`${emu.activityUrl}/`);
    expect(activity?.assets?.largeUrl).toBe(`${emu.activityUrl}/`);
    expect(activity?.party?.id).toBe(aliceLaunch.instanceId);

    // The SDK forwarded the game's console to the client; it stays out of the emulator's log.
    const [instance] = emu.activityInstances();
    expect(instance?.participants).toEqual([alice.id, bob.id]);
    expect(instance?.console).toContainEqual({
      userId: alice.id,
      level: 'log',
      message: 'signed in as alice',
    });
    expect(allLogLines.some((l) => l.includes('signed in as alice'))).toBe(false);

    // Bob closes his window: Alice's game hears it from the SDK.
    await bobPage.close();
    await aliceFrame
      .locator('#participants li', { hasText: 'Bob' })
      .waitFor({ state: 'detached', timeout: 5000 });
    await alicePage.close();
    await eventually(() => emu.activityInstances().length === 0, 5000, 'the instance ended');
    await eventually(
      () => watcher.client.getUser(alice.id)?.gameActivity === null,
      5000,
      'the activity gone',
    );
    expect(problems).toEqual([]);
  }, 60_000);
});

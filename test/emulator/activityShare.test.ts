import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { emulatorFor } from '../integration/helpers.js';
import { sharedChromium } from '../setup/browser.js';
import { voiceChannel } from './activityHostHelpers.js';
import { probeFrame, sdkProbes, type ProbeWindow } from './sdkProbe.js';

const browser = sharedChromium();
const startProbe = sdkProbes();

async function openProbe(url: string, problems: string[]): Promise<{ page: Page; frame: Frame }> {
  const page = await browser().newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return { page, frame: await probeFrame(page) };
}

/** Starts `shareLink` in the frame; resolves with its reply once the player answered the modal. */
function shareFrom(frame: Frame, args: Record<string, unknown>): Promise<unknown> {
  return frame.evaluate(
    (a) => (globalThis as unknown as ProbeWindow).sdk.commands.shareLink(a as { message: string }),
    args,
  );
}

function textChannel(emu: Emulator): string {
  const channel = emu.guilds()[0]?.channels.find((c) => c.type === 0);
  if (!channel) throw new Error('no text channel in the seeded guild');
  return channel.id;
}

describe('shareLink in the Activity host (Chromium)', () => {
  it("shares a link with custom_id through the client's modal (send, copy, close), and a player who opens it gets the custom_id", async () => {
    const emu = await emulatorFor({ users: 2 });
    const probe = await startProbe(emu.applicationId);
    emu.setActivityUrlMappings([{ prefix: '/', target: probe.url }]);
    const problems: string[] = [];
    const alice = await openProbe(
      emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) }).url,
      problems,
    );
    expect(await alice.frame.evaluate(() => (globalThis as unknown as ProbeWindow).sdk.customId)).toBeNull();

    // Send: the modal shows the message and the link; the link goes to the guild's text channel.
    const sent = shareFrom(alice.frame, {
      message: 'Catch stars with me',
      custom_id: 'room-42',
      referrer_id: 'r-1',
    });
    const modal = alice.page.locator('dialog#consent');
    await modal.waitFor({ timeout: 10_000 });
    expect(await modal.innerText()).toContain('Catch stars with me');
    await alice.page.locator('#authorize', { hasText: 'Send in #' }).click();
    // The SDK checked the reply against its own schema (SHARE_LINK's response) before resolving.
    expect(await sent).toEqual({ success: true, didCopyLink: false, didSendMessage: true });
    const [share] = emu.activityShares();
    expect(share).toMatchObject({
      userId: emu.users[0]?.id,
      customId: 'room-42',
      message: 'Catch stars with me',
      via: 'send',
      channelId: textChannel(emu),
    });
    expect(share?.url).toBe(`${emu.http}/activities/${emu.applicationId}?custom_id=room-42`);
    // referrer_id is ignored silently: not in the link, not an error.
    expect(share?.url).not.toContain('r-1');
    const message = emu.channelMessages(textChannel(emu)).find((m) => m.id === share?.messageId);
    expect(message?.content).toBe(`Catch stars with me\n${share?.url}`);

    // Copy, then a closed modal.
    const copied = shareFrom(alice.frame, { message: 'Again', custom_id: 'room-43' });
    await alice.page.locator('#copy').click();
    expect(await copied).toEqual({ success: true, didCopyLink: true, didSendMessage: false });
    const closed = shareFrom(alice.frame, { message: 'Never mind' });
    await alice.page.locator('#cancel').click();
    expect(await closed).toEqual({ success: false, didCopyLink: false, didSendMessage: false });
    expect(emu.activityShares().map((s) => s.via)).toEqual(['send', 'copy']);

    // Bob opens the shared link: his launch carries the custom_id, which the SDK exposes.
    const bob = await openProbe(emu.launchActivity({ user: 'bob', link: share?.url ?? '' }).url, problems);
    expect(await bob.frame.evaluate(() => (globalThis as unknown as ProbeWindow).sdk.customId)).toBe(
      'room-42',
    );
    expect(() => emu.launchActivity({ user: 'bob', link: 'https://example.com/activities/1' })).toThrow(
      RangeError,
    );

    // A message over the SDK's 1000 characters is refused with 4000 (the SDK sends it as it is).
    const tooLong = await alice.frame.evaluate(async () => {
      try {
        await (globalThis as unknown as ProbeWindow).sdk.commands.shareLink({ message: 'x'.repeat(1001) });
        return 'accepted';
      } catch (error) {
        return (error as { code?: number }).code;
      }
    });
    expect(tooLong).toBe(4000);
    expect(problems).toEqual([]);
  }, 60_000);
});

import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { emulatorFor } from '../integration/helpers.js';
import { sharedChromium } from '../setup/browser.js';
import { voiceChannel } from './activityHostHelpers.js';
import { probeFrame, sdkProbes, type ProbeWindow } from './sdkProbe.js';

const browser = sharedChromium();
const startProbe = sdkProbes();

/** What the test reads of a page's `Image`. */
interface PageImage {
  naturalWidth: number;
  src: string;
  onload: (() => void) | null;
  onerror: (() => void) | null;
}

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function open(url: string, problems: string[]): Promise<{ page: Page; frame: Frame }> {
  const page = await browser().newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return { page, frame: await probeFrame(page) };
}

/** Runs one of the SDK's commands in the frame: its reply, or `{ code }` of its ERROR. */
function run(frame: Frame, command: string, args?: unknown): Promise<unknown> {
  return frame.evaluate(
    async ({ command, args }) => {
      const commands = (globalThis as unknown as ProbeWindow).sdk.commands as unknown as Record<
        string,
        (a?: unknown) => Promise<unknown>
      >;
      try {
        return await commands[command]?.(args);
      } catch (error) {
        return { code: (error as { code: number }).code };
      }
    },
    { command, args },
  );
}

describe("the client's dialogs for an Activity (Chromium)", () => {
  it('openInviteDialog, initiateImageUpload (the file picker) and openShareMomentDialog, as the SDK parses them', async () => {
    const emu = await emulatorFor({ users: 2 });
    const probe = await startProbe(emu.applicationId);
    emu.setActivityUrlMappings([{ prefix: '/', target: probe.url }]);
    const problems: string[] = [];
    const { page, frame } = await open(
      emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) }).url,
      problems,
    );

    // The invite dialog shows in the client with the Activity's link; the reply is empty.
    expect(await run(frame, 'openInviteDialog')).toBeNull();
    const notice = page.locator('dialog#notice');
    await notice.waitFor({ timeout: 5000 });
    expect(await notice.innerText()).toContain(`${emu.http}/activities/${emu.applicationId}`);
    await page.locator('#notice-close').click();

    // The file picker: the player picks an image; the SDK gets an image_url on the CDN that serves it.
    const upload = run(frame, 'initiateImageUpload');
    await page.locator('dialog#upload').waitFor({ timeout: 5000 });
    const chooser = page.waitForEvent('filechooser');
    await page.locator('#upload-file').click();
    await (await chooser).setFiles({ name: 'star shot.png', mimeType: 'image/png', buffer: PNG });
    const { image_url: imageUrl } = (await upload) as { image_url: string };
    expect(imageUrl).toMatch(new RegExp(`^${emu.http}/attachments/\\d+/\\d+/star_shot\\.png$`));
    const served = await fetch(imageUrl);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    // The frame may show it: the CDN is allowed for images by the frame's policy.
    const shown = await frame.evaluate(
      (src) =>
        new Promise<number>((resolve) => {
          // The page's Image (this file is typed without the DOM).
          const img = new (globalThis as unknown as { Image: new () => PageImage }).Image();
          img.onload = () => resolve(img.naturalWidth);
          img.onerror = () => resolve(-1);
          img.src = src;
        }),
      imageUrl,
    );
    expect(shown).toBe(1);

    // Closing the picker uploads nothing: an ERROR.
    const cancelled = run(frame, 'initiateImageUpload');
    await page.locator('dialog#upload').waitFor({ timeout: 5000 });
    await page.locator('#upload-cancel').click();
    expect(await cancelled).toEqual({ code: 4000 });

    // The share moment dialog takes the CDN's media only.
    expect(await run(frame, 'openShareMomentDialog', { mediaUrl: imageUrl })).toBeNull();
    await notice.waitFor({ timeout: 5000 });
    expect(await notice.innerText()).toContain(imageUrl);
    await page.locator('#notice-close').click();
    expect(await run(frame, 'openShareMomentDialog', { mediaUrl: 'https://example.com/a.png' })).toEqual({
      code: 4000,
    });
    expect(problems).toEqual([]);
    await page.close();

    // A private launch has no channel to invite to: 4005.
    const solo = await open(emu.launchActivity({ user: 'bob' }).url, problems);
    expect(await run(solo.frame, 'openInviteDialog')).toEqual({ code: 4005 });
  }, 60_000);
});

import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { allLogLines, emulatorFor, eventually } from '../integration/helpers.js';
import { sharedChromium } from '../setup/browser.js';
import { voiceChannel } from './activityHostHelpers.js';
import { externalApis, probeFrame, sdkProbes, type ProbeWindow } from './sdkProbe.js';

const browser = sharedChromium();
const startProbe = sdkProbes();
const startExternal = externalApis();

/** A fetch from inside the game's frame: the JSON's `from`, or the error's message. */
function fetchFrom(frame: Frame, url: string): Promise<string> {
  return frame.evaluate(async (target) => {
    try {
      const answer = await fetch(target);
      return ((await answer.json()) as { from: string }).from;
    } catch (error) {
      return `failed: ${(error as Error).message}`;
    }
  }, url);
}

async function openHost(url: string, warnings: string[]): Promise<Page> {
  const page = await browser().newPage();
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto(url);
  return page;
}

describe("the Activity frame's Content Security Policy (Chromium)", () => {
  it('blocks a fetch to another origin, logs the mapping that would allow it, and lets the same fetch through the mapping with patchUrlMappings', async () => {
    const emu = await emulatorFor({ users: 1 });
    const probe = await startProbe(emu.applicationId);
    const external = await startExternal();
    emu.setActivityUrlMappings([
      { prefix: '/', target: probe.url },
      { prefix: '/ext', target: external.url },
    ]);
    const warnings: string[] = [];
    const page = await openHost(
      emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) }).url,
      warnings,
    );
    const frame = await probeFrame(page);

    // The game's document carries the policy; the proxy origin itself (and its /.proxy paths) stay reachable.
    const policy = await frame.evaluate(async () =>
      (await fetch('/')).headers.get('content-security-policy'),
    );
    expect(policy).toContain(`connect-src 'self' ${emu.activityUrl}`);
    expect(await fetchFrom(frame, '/hello')).toBe('probe');
    expect(await fetchFrom(frame, '/.proxy/hello')).toBe('probe');

    // Straight to the other origin: blocked, as production blocks it, with the mapping that would allow it.
    expect(await fetchFrom(frame, `${external.url}/hello?token=not-for-logs`)).toMatch(/^failed/);
    await eventually(
      () => allLogLines.some((l) => l.includes(`blocked connect-src ${external.url}/hello`)),
      10_000,
      'the blocked request in the log',
    );
    const line = allLogLines.find((l) => l.includes(`blocked connect-src ${external.url}/hello`)) ?? '';
    const prefix = `/${external.host.replace(/[.:]/g, '-')}`;
    expect(line).toContain(`add a URL mapping ${prefix} -> ${external.url}`);
    expect(line).not.toContain('not-for-logs');
    // The host page logs it in the player's console and lists it.
    await eventually(
      () => warnings.some((w) => w.includes(`Activity: blocked connect-src ${external.url}/hello`)),
      5000,
      "the host page's console warning",
    );
    expect(await page.locator('#blocked li').first().innerText()).toBe(`${external.url}/hello`);

    // The same fetch, rewritten by the SDK's patchUrlMappings (2.2 defaults: no /.proxy prefix), goes through.
    const mapped = await frame.evaluate(
      async ({ host, target }) => {
        const { patchUrlMappings } = (globalThis as unknown as ProbeWindow).sdkModule;
        patchUrlMappings([{ prefix: '/ext', target: host }]);
        const answer = await fetch(target);
        return { url: answer.url, from: ((await answer.json()) as { from: string }).from };
      },
      { host: external.host, target: `${external.url}/hello` },
    );
    expect(mapped).toEqual({ url: `${emu.activityUrl}/ext/hello`, from: 'external' });
    await page.close();
  }, 60_000);

  it('is off with activityContentSecurityPolicy: false, for debugging', async () => {
    const emu = await emulatorFor({ users: 1, activityContentSecurityPolicy: false });
    const probe = await startProbe(emu.applicationId);
    const external = await startExternal();
    emu.setActivityUrlMappings([{ prefix: '/', target: probe.url }]);
    const page = await openHost(emu.launchActivity({ user: 'alice' }).url, []);
    const frame = await probeFrame(page);
    expect(
      await frame.evaluate(async () => (await fetch('/')).headers.get('content-security-policy')),
    ).toBeNull();
    expect(await fetchFrom(frame, `${external.url}/hello`)).toBe('external');
    await page.close();
  }, 60_000);
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { sharedChromium } from '../setup/browser.js';

const browser = sharedChromium();

describe('the Activity sample (npm run example:activity)', () => {
  it('runs with one command: two players open their links, authorize, play a round to its winner, and one buys in the shop', async () => {
    // As `npm run example:activity` runs it.
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/activity/main.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(child, 'close');
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
    try {
      const deadline = Date.now() + 30_000;
      while (!output.includes('Ctrl+C stops')) {
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`the sample did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const links = [...output.matchAll(/^ {2}(\w+): (http:\/\/\S+)$/gm)].map((m) => ({
        name: m[1],
        url: m[2],
      }));
      expect(links.map((l) => l.name)).toEqual(['alice', 'bob']);
      const problems: string[] = [];
      const pages: Page[] = [];
      for (const link of links) {
        const page = await browser().newPage();
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(link.url ?? '');
        await page.locator('#authorize').click({ timeout: 10_000 });
        pages.push(page);
      }
      const [alice, bob] = pages.map((p) => p.frameLocator('iframe'));
      if (!alice || !bob) throw new Error('two players expected');
      await alice.locator('#scores li', { hasText: 'Bob: 0' }).waitFor({ timeout: 10_000 });
      for (let caught = 1; caught <= 5; caught += 1) {
        await alice.locator('#board button.star').click();
        if (caught === 5) break;
        // Both screens move on before the next click (a click on a stale star names an old round).
        for (const frame of [alice, bob]) {
          await frame.locator('#scores li', { hasText: `Alice: ${caught}` }).waitFor({ timeout: 5000 });
        }
      }
      for (const frame of [alice, bob]) {
        await frame.locator('#status', { hasText: 'Alice wins the round!' }).waitFor({ timeout: 5000 });
      }
      // A new round starts with everyone at zero.
      await bob.locator('#scores li', { hasText: 'Alice: 0' }).waitFor({ timeout: 10_000 });
      // Bob buys the Golden Board in the client's purchase modal; his board turns gold.
      const bobWindow = pages[1];
      if (!bobWindow) throw new Error('no window for Bob');
      await bob.locator('#buy', { hasText: 'Buy the Golden Board ($4.99)' }).click({ timeout: 5000 });
      const modal = bobWindow.locator('dialog#consent');
      await modal.locator('h1', { hasText: 'Buy Golden Board?' }).waitFor({ timeout: 5000 });
      await bobWindow.locator('#authorize', { hasText: 'Buy' }).click();
      await bob
        .locator('body.golden #shop', { hasText: 'You own the Golden Board.' })
        .waitFor({ timeout: 5000 });
      expect(await alice.locator('body.golden').count()).toBe(0);
      expect(problems).toEqual([]);
      for (const page of pages) await page.close();
    } finally {
      child.kill('SIGINT');
    }
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  }, 90_000);
});

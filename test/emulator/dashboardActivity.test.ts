import { describe, expect, it } from 'vitest';

import { emulatorFor, eventually } from '../integration/helpers.js';
import { sharedChromium } from '../setup/browser.js';
import { sampleGames } from './activityHostHelpers.js';

const SECRET = 'dashboard-activity-secret';

const browser = sharedChromium();
const startGame = sampleGames();

describe('the dashboard launches the Activity', () => {
  it('shows the proxy and its mappings, launches for a player, and lists the instance with its players', async () => {
    const emu = await emulatorFor({ clientSecret: SECRET, autoConsent: true });
    const game = await startGame(emu, SECRET);
    const page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(emu.dashboard);
    await page.locator('#live.on').waitFor({ timeout: 10_000 });
    await page.locator('#activity-proxy', { hasText: `/ → ${game.url}` }).waitFor({ timeout: 5000 });
    expect(await page.locator('#activity-proxy').innerText()).toContain(emu.activityUrl);

    const form = page.locator('#launch-activity');
    await form.locator('select[name=user]').selectOption({ label: '@bob' });
    await form.locator('select[name=channel]').selectOption({ label: 'Emulator Guild 🔊 General' });
    await form.locator('button[type=submit]').click();
    const link = page.locator('#launches a', { hasText: 'Open the window of bob' });
    await link.waitFor({ timeout: 5000 });
    expect(await link.getAttribute('href')).toMatch(
      /^http:\/\/\d+\.localhost:\d+\/\.emulator\/activity\?ticket=/,
    );

    const [window] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    // autoConsent approves AUTHORIZE at once, so the game signs in without the modal.
    await window
      .frameLocator('iframe')
      .locator('#participants li', { hasText: 'Bob' })
      .waitFor({ timeout: 10_000 });
    const [instance] = emu.activityInstances();
    const row = page.locator(`#activity-instances tr[data-instance-id="${instance?.id ?? ''}"]`);
    await row.locator('.players', { hasText: 'bob' }).waitFor({ timeout: 5000 });
    // The instance's Layout control: picture in picture reaches the game's SDK as ACTIVITY_LAYOUT_MODE_UPDATE.
    await row.locator('select[name=layoutMode]').selectOption('pip');
    await window
      .frameLocator('iframe')
      .locator('#layout', { hasText: 'Layout: picture in picture' })
      .waitFor({ timeout: 5000 });
    await window.close();
    await eventually(() => emu.activityInstances().length === 0, 5000, 'the instance ended');
    await row.waitFor({ state: 'detached', timeout: 5000 });
    expect(problems).toEqual([]);
  }, 60_000);
});

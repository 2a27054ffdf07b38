import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

/**
 * One headless Chromium (from the `@sparticuz/chromium` devDependency, unpacked by ./chromium.ts) for the
 * test file that calls this at its top level: launched before its tests, closed after them. Returns a getter.
 */
export function sharedChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: inject('chromiumPath'),
      headless: true,
      args: ['--no-sandbox', '--disable-background-networking'],
    });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium did not start');
    return browser;
  };
}

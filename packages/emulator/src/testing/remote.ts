import type { BrowserOptions, EmulatorPublicInfo } from '../types.js';
import { createBrowserOpener } from './browser.js';

function isPublicInfo(value: unknown): value is EmulatorPublicInfo {
  if (typeof value !== 'object' || value === null) return false;
  const info = value as Record<string, unknown>;
  return (
    ['http', 'api', 'gateway', 'dashboard', 'applicationId', 'applicationPublicKey'].every(
      (key) => typeof info[key] === 'string',
    ) &&
    typeof info.autoConsent === 'boolean' &&
    Array.isArray(info.users) &&
    info.users.every(
      (user: unknown) =>
        typeof user === 'object' &&
        user !== null &&
        typeof (user as Record<string, unknown>).id === 'string' &&
        typeof (user as Record<string, unknown>).username === 'string',
    )
  );
}

/**
 * Asks an emulator running in another process (`sdkpp emulator` in another terminal) where everything is:
 * its addresses, application id and public key, and test users, from `<http>/emulator.json`.
 *
 * @param http - The emulator's HTTP origin, e.g. `http://127.0.0.1:53123`.
 * @throws Error naming the address when nothing answers there or the answer is not an sdkpp emulator's.
 */
export async function emulatorInfoAt(http: string, signal?: AbortSignal): Promise<EmulatorPublicInfo> {
  const url = new URL('/emulator.json', http);
  const reply = await fetch(url, { signal: signal ?? AbortSignal.timeout(5000) }).catch((error: unknown) => {
    throw new Error(
      `no emulator answers at ${url.origin} (${error instanceof Error ? error.message : String(error)})`,
    );
  });
  const body: unknown = await reply.json().catch(() => undefined);
  if (!reply.ok || !isPublicInfo(body)) {
    throw new Error(
      `${url.origin} does not answer like an sdkpp emulator (GET /emulator.json: ${reply.status})`,
    );
  }
  return body;
}

/**
 * Plays `username` in a browser against an emulator in another process, as {@link Emulator.browserAs} does
 * for one in this process: give it to the client as `openUrl`. On first use it looks the user up at
 * `<http>/emulator.json`; then it answers the consent page (or follows auto-consent's redirect) and loads
 * the final loopback redirect, which completes `authorize()`.
 */
export function emulatorBrowser(
  http: string,
  username: string,
  options: BrowserOptions = {},
): (url: string) => Promise<void> {
  let opener: Promise<(url: string) => Promise<void>> | undefined;
  const openerFor = async (): Promise<(url: string) => Promise<void>> => {
    const info = await emulatorInfoAt(http);
    const user = info.users.find((candidate) => candidate.username === username);
    if (!user) {
      const known = info.users.map((candidate) => candidate.username).join(', ');
      throw new Error(`the emulator at ${info.http} has no user "${username}" (it has ${known || 'none'})`);
    }
    return createBrowserOpener(user, info.autoConsent, options);
  };
  return async (url) => {
    opener ??= openerFor().catch((error: unknown) => {
      opener = undefined; // a later sign-in, once the emulator is up, tries again
      throw error;
    });
    await (
      await opener
    )(url);
  };
}

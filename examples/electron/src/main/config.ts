import { parseArgs } from 'node:util';

import type { ClientOptions } from 'sdkpp';
import { startEmulator, type Emulator } from '@sdkpp/emulator';

/** Where the app's client connects, and what to stop when the app quits. */
export interface Backend {
  /** Client options for this backend (no `openUrl` unless the backend plays the browser itself). */
  client: ClientOptions;
  /** The embedded emulator, when the app started one. */
  emulator: Emulator | undefined;
  /** One line for the log. */
  description: string;
  close(): Promise<void>;
}

const USAGE =
  'usage: electron examples/electron/dist/main.js [--emulator <http url> --app-id <id>]\n' +
  '  (or SDKPP_EMULATOR and SDKPP_APPLICATION_ID; with neither, an emulator is started inside the app)';

/** A bad command line; the message is the usage. */
export class UsageError extends Error {}

/**
 * Reads `--emulator <url>` and `--app-id <id>` (or SDKPP_EMULATOR / SDKPP_APPLICATION_ID). With an address, the app
 * talks to that emulator and sign-in opens the system browser (start the emulator with `--auto-consent` to
 * skip the consent click). With none, it starts an emulator of its own and plays `alice` on the consent page,
 * so the app works with one command.
 */
export async function resolveBackend(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<Backend> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: false,
      options: { emulator: { type: 'string' }, 'app-id': { type: 'string' } },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const address = stringOption(values.emulator) ?? env.SDKPP_EMULATOR;
  const applicationId = stringOption(values['app-id']) ?? env.SDKPP_APPLICATION_ID;
  if (address === undefined) return embedded();

  let http: URL;
  try {
    http = new URL(address);
  } catch {
    throw new UsageError(`--emulator must be an http URL, got ${JSON.stringify(address)}\n${USAGE}`);
  }
  if (http.protocol !== 'http:' && http.protocol !== 'https:') {
    throw new UsageError(`--emulator must be an http URL, got ${JSON.stringify(address)}\n${USAGE}`);
  }
  if (applicationId === undefined || !/^[0-9]{1,20}$/.test(applicationId)) {
    throw new UsageError(`--app-id <id> (the emulator's application id) is needed with --emulator\n${USAGE}`);
  }
  return {
    client: { apiBase: `${http.origin}/api/v10`, webBase: http.origin, applicationId },
    emulator: undefined,
    description: `emulator at ${http.origin}, application ${applicationId}`,
    close: () => Promise.resolve(),
  };
}

function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

async function embedded(): Promise<Backend> {
  const emulator = await startEmulator({ users: 3, autoConsent: true });
  return {
    client: {
      apiBase: emulator.api,
      webBase: emulator.http,
      applicationId: emulator.applicationId,
      openUrl: emulator.browserAs('alice'),
    },
    emulator,
    description: `embedded emulator at ${emulator.http} (dashboard ${emulator.http}/dashboard), signed in as alice`,
    close: () => emulator.close(),
  };
}

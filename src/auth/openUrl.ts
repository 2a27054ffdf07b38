import { spawn } from 'node:child_process';

import { AuthorizationError } from '../errors/index.js';

/** Opens an authorize URL for the user. Replace it to use an in-game browser or a test driver. */
export type UrlOpener = (url: string) => Promise<void>;

/** The command that opens a URL in the system browser on this platform, without a shell. */
function browserCommand(url: string): { command: string; args: string[] } {
  switch (process.platform) {
    case 'darwin':
      return { command: 'open', args: [url] };
    case 'win32':
      // rundll32 takes the URL as one argument; `cmd /c start` would re-parse '&' in the query.
      return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
    default:
      return { command: 'xdg-open', args: [url] };
  }
}

/**
 * Opens `url` in the system browser. Rejects with an {@link AuthorizationError} when no browser launcher
 * exists.
 */
export const openInSystemBrowser: UrlOpener = (url) =>
  new Promise((resolve, reject) => {
    const { command, args } = browserCommand(url);
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) => {
      reject(
        new AuthorizationError(`could not start ${command} to open the browser: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });

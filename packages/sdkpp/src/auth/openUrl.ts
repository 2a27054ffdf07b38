import { spawn } from 'node:child_process';

import { BrowserUnavailableError } from '@sdkpp/protocol';

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
 * Opens `url` in the system browser. Rejects with a {@link BrowserUnavailableError} when the launcher cannot
 * be started (no `xdg-open` on a headless machine): its message ends with "open this address in a browser:
 * <url>", since the player then has to open it by hand.
 */
export const openInSystemBrowser: UrlOpener = (url) =>
  new Promise((resolve, reject) => {
    const { command, args } = browserCommand(url);
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) => {
      // The message carries the URL (the player needs it); Node's own message ("spawn xdg-open ENOENT") does not.
      reject(
        new BrowserUnavailableError(
          `could not start ${command} to open a browser (${error.message}); open this address in a browser: ${url}`,
          { url, cause: error },
        ),
      );
    });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });

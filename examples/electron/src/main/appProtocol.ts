import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The page is served from a private `sdkpp-app://app/` scheme rather than `file://`: a file URL would give
 * the page (and anything injected into it) read access to the disk, and `'self'` in the CSP would mean
 * every local file.
 */
export const APP_SCHEME = 'sdkpp-app';
/** The page's origin. */
export const APP_ORIGIN = `${APP_SCHEME}://app`;
/** The page the window loads. */
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/** The files the scheme serves, and nothing else. */
const SERVED = new Set(['index.html', 'styles.css', 'renderer.js']);

/**
 * The policy the page runs under: its own script and stylesheet only, no inline code, no eval, no network,
 * no plugins, no framing, no form posts. Sent as a header and repeated in index.html.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** True when `url` is a page of the app's own scheme and host (the only sender the bridge answers). */
export function isAppUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === 'app';
  } catch {
    return false;
  }
}

/** The file under `root` that an app URL names, or undefined for anything not served (404). */
export function resolveAppFile(url: string, root: string): string | undefined {
  if (!isAppUrl(url)) return undefined;
  const name = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
  if (!SERVED.has(name)) return undefined;
  const file = resolve(root, name);
  const inside = relative(root, file);
  return inside !== '' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside) ? file : undefined;
}

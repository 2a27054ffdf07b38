import type { ApplicationRecord } from '../store/types.js';

/** Hosts that reach the game's own machine; any port and path on them is registered (RFC 8252 §7.3). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The path of every custom-scheme redirect URI. */
export const CUSTOM_SCHEME_PATH = '/authorize/callback';

/** The custom-scheme redirect URIs an application has registered: `discord-<id>` and its extra schemes. */
export function customSchemeRedirectUris(app: ApplicationRecord): string[] {
  return [`discord-${app.id}`, ...app.customSchemes].map((scheme) => `${scheme}:${CUSTOM_SCHEME_PATH}`);
}

/**
 * Whether `uri` is registered for the application. A loopback `http` URI with any port and path is accepted,
 * like a desktop app registered with `http://127.0.0.1/callback`; custom-scheme URIs must match exactly.
 * Anything with credentials or a fragment is refused, since RFC 6749 §3.1.2 forbids fragments.
 */
export function isRegisteredRedirectUri(uri: string, app: ApplicationRecord): boolean {
  if (customSchemeRedirectUris(app).includes(uri)) return true;
  if (uri.includes('#')) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && !url.username && !url.password;
}

/** True when a redirect goes to a web page on this machine (one a test browser can follow). */
export function isLoopbackHttpUrl(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** `uri` with `params` added to its query, keeping any query it already had. */
export function withQueryParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}

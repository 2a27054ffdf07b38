/** A finished HTTP response, built by a route and written by the router. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | null;
}

const JSON_TYPE = 'application/json';
const HTML_TYPE = 'text/html; charset=utf-8';
/** RFC 6749 §5.1: responses carrying tokens (or their errors) must not be cached. */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** A JSON response. */
export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body: JSON.stringify(value) };
}

/** A JSON response that must not be cached (tokens, token errors). */
export function noStoreJsonReply(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): Reply {
  return jsonReply(status, value, { ...NO_STORE, ...headers });
}

/**
 * An HTML page. The policy allows inline styles only: the emulator's pages have no scripts and load nothing,
 * and they must not be framed (a framed consent page invites clickjacking). The referrer goes to the same
 * origin only: under `no-referrer` a browser sends `Origin: null` with the page's own form posts, which
 * OriginPolicy must then refuse, while another origin still learns nothing of the page's address.
 */
export function htmlReply(status: number, html: string): Reply {
  return {
    status,
    headers: {
      'Content-Type': HTML_TYPE,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'same-origin',
    },
    body: html,
  };
}

/** A 302 redirect. The Location may carry a code, so the response is not cached and sends no referrer. */
export function redirectReply(location: string): Reply {
  return {
    status: 302,
    headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
    body: null,
  };
}

/** 204 No Content. */
export function noContentReply(): Reply {
  return { status: 204, headers: {}, body: null };
}

import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

import { safeEqual } from '../random.js';

/** The header the dashboard's page sends its per-emulator token in. */
export const TOKEN_HEADER = 'x-dashboard-token';

/** Why a request to the dashboard is refused: the status and a sentence for the JSON error. */
export interface Refusal {
  /** 401, 403, 415 or 421. */
  status: number;
  /** A short machine-readable reason. */
  error: string;
  /** What was wrong, for the tester. */
  message: string;
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/**
 * Who may use the dashboard: only loopback peers, only under the emulator's own host names (a DNS-rebinding page
 * names another host), and for changes only same-origin requests carrying the page's token.
 */
export class DashboardGuard {
  readonly #origin: string;
  readonly #hosts: Set<string>;
  readonly #token: string;

  /** `origin` is the emulator's HTTP origin; `token` the secret the page carries. */
  constructor(origin: string, token: string) {
    this.#origin = origin;
    this.#token = token;
    const url = new URL(origin);
    this.#hosts = new Set([url.host, `localhost:${url.port}`, `127.0.0.1:${url.port}`, `[::1]:${url.port}`]);
  }

  /** Checks every dashboard request: a loopback peer that addressed the emulator by one of its names. */
  checkAccess(req: IncomingMessage): Refusal | null {
    if (!isLoopback(req.socket.remoteAddress)) {
      return { status: 403, error: 'not_loopback', message: 'The dashboard answers loopback clients only' };
    }
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || !this.#hosts.has(host)) {
      return { status: 421, error: 'wrong_host', message: `Use ${this.#origin}/dashboard` };
    }
    return null;
  }

  /**
   * Checks a state-changing request: no other origin (browsers name it in `Origin` and `Sec-Fetch-Site`), the
   * page's token, and a JSON body (which a plain cross-site form cannot send).
   */
  checkAction(req: IncomingMessage): Refusal | null {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== this.#origin) {
      return { status: 403, error: 'cross_origin', message: 'Cross-origin requests are refused' };
    }
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return { status: 403, error: 'cross_origin', message: 'Cross-origin requests are refused' };
    }
    const token = req.headers[TOKEN_HEADER];
    if (typeof token !== 'string' || token.length === 0) {
      return { status: 401, error: 'missing_token', message: `The ${TOKEN_HEADER} header is required` };
    }
    if (!safeEqual(token, this.#token)) {
      return { status: 403, error: 'bad_token', message: 'The dashboard token is wrong' };
    }
    const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      return { status: 415, error: 'unsupported_media_type', message: 'Send application/json' };
    }
    return null;
  }
}

import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

import { OriginPolicy, type Refusal } from '../http/originPolicy.js';
import { safeEqual } from '../random.js';

export type { Refusal } from '../http/originPolicy.js';

/** The header the dashboard's page sends its per-emulator token in. */
export const TOKEN_HEADER = 'x-dashboard-token';

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
  readonly #policy: OriginPolicy;
  readonly #token: string;

  /** `origin` is the emulator's HTTP origin; `token` the secret the page carries. */
  constructor(origin: string, token: string) {
    this.#policy = new OriginPolicy(origin);
    this.#token = token;
  }

  /** Checks every dashboard request: a loopback peer that addressed the emulator by one of its names. */
  checkAccess(req: IncomingMessage): Refusal | null {
    if (!isLoopback(req.socket.remoteAddress)) {
      return { status: 403, error: 'not_loopback', message: 'The dashboard answers loopback clients only' };
    }
    return this.#policy.checkHost(req, '/dashboard');
  }

  /**
   * Checks a state-changing request: no other origin (browsers name it in `Origin` and `Sec-Fetch-Site`), the
   * page's token, and a JSON body (which a plain cross-site form cannot send).
   */
  checkAction(req: IncomingMessage): Refusal | null {
    const crossOrigin = this.#policy.checkSameOrigin(req);
    if (crossOrigin) return crossOrigin;
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

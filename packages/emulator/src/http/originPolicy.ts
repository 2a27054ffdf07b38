import type { IncomingMessage } from 'node:http';

import { HtmlError } from './errors.js';

/** Why a browser's request is refused: the status and a sentence for the answer. */
export interface Refusal {
  /** 401, 403, 415 or 421. */
  status: number;
  /** A short machine-readable reason. */
  error: string;
  /** What was wrong, for the tester. */
  message: string;
}

/**
 * Which browser requests are the emulator's own, for its pages (dashboard, store, consent). A DNS-rebinding
 * page reaches the port under its own host name, so a request naming any other Host is not meant for the
 * emulator; and since a page of another site can post to the emulator, a change must come from one of the
 * emulator's own pages, which browsers state in `Origin` and `Sec-Fetch-Site`.
 */
export class OriginPolicy {
  /** The emulator's HTTP origin, where the tester is sent. */
  readonly origin: string;
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;

  constructor(origin: string) {
    this.origin = origin;
    const url = new URL(origin);
    const port = url.port === '' ? '' : `:${url.port}`;
    this.#hosts = new Set([url.host, `localhost${port}`, `127.0.0.1${port}`, `[::1]${port}`]);
    // A page opened under any of the emulator's names is the emulator's own page.
    this.#origins = new Set([...this.#hosts].map((host) => `${url.protocol}//${host}`));
  }

  /** 421 unless the request names the emulator by one of its host names; `page` is where to go instead. */
  checkHost(req: IncomingMessage, page: string): Refusal | null {
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || !this.#hosts.has(host)) {
      return { status: 421, error: 'wrong_host', message: `Use ${this.origin}${page}` };
    }
    return null;
  }

  /**
   * 403 for a request a page of another origin sent. A request that names no origin at all passes: it was not
   * sent by a browser on some page's behalf (a script, a test), and a plain HTML form always names it.
   */
  checkSameOrigin(req: IncomingMessage): Refusal | null {
    const origin = req.headers.origin?.toLowerCase();
    const site = req.headers['sec-fetch-site'];
    if (
      (origin !== undefined && !this.#origins.has(origin)) ||
      (site !== undefined && site !== 'same-origin' && site !== 'none')
    ) {
      return { status: 403, error: 'cross_origin', message: 'Cross-origin requests are refused' };
    }
    return null;
  }

  /**
   * For the emulator's HTML pages: throws the refusal as an error page when the request does not name the
   * emulator, or when it `changes` something and another origin sent it.
   */
  guardPage(req: IncomingMessage, options: { title: string; page: string; changes: boolean }): void {
    const refusal = this.checkHost(req, options.page) ?? (options.changes ? this.checkSameOrigin(req) : null);
    if (refusal) throw new HtmlError(refusal.status, options.title, `${refusal.message}.`);
  }
}

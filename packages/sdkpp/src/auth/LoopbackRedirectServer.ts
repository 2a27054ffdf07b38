import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { LogWriter } from '../logging/index.js';

/** What arrived at the redirect URI: a code, or an OAuth2 error such as `access_denied`. */
export type RedirectOutcome =
  { kind: 'code'; code: string } | { kind: 'error'; error: string; description: string | undefined };

const CALLBACK_PATH = '/callback';

/**
 * A one-shot HTTP listener on 127.0.0.1 that receives the OAuth2 redirect. It accepts only a callback
 * carrying the expected `state`; anything else gets an error page and the wait goes on, so a forged
 * request cannot end a real sign-in.
 */
export class LoopbackRedirectServer {
  readonly #server: Server;
  readonly #expectedState: string;
  readonly #log: LogWriter;
  #onOutcome: ((outcome: RedirectOutcome) => void) | undefined;
  #done = false;

  private constructor(server: Server, expectedState: string, log: LogWriter) {
    this.#server = server;
    this.#expectedState = expectedState;
    this.#log = log;
  }

  /** Starts listening on an ephemeral port of 127.0.0.1. */
  static async start(expectedState: string, log: LogWriter): Promise<LoopbackRedirectServer> {
    const server = createServer();
    const instance = new LoopbackRedirectServer(server, expectedState, log);
    server.on('request', (req, res) => {
      instance.#handle(req, res);
    });
    server.on('clientError', (_err, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return instance;
  }

  /** The redirect URI to register with the authorize request. */
  get redirectUri(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  }

  /** Resolves with the first valid redirect. */
  waitForOutcome(): Promise<RedirectOutcome> {
    return new Promise((resolve) => {
      this.#onOutcome = resolve;
    });
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    this.#done = true;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH || this.#done) {
      respond(res, 404, 'Not found', 'This address only receives the sign-in redirect.');
      return;
    }
    const params = url.searchParams;
    if (params.get('state') !== this.#expectedState) {
      this.#log.warn('authorize: ignored a redirect whose state did not match (possible forgery)');
      respond(
        res,
        400,
        'Sign-in not accepted',
        'The request did not come from this sign-in. Try again from the game.',
      );
      return;
    }
    const code = params.get('code');
    const error = params.get('error');
    let outcome: RedirectOutcome;
    if (code) {
      outcome = { kind: 'code', code };
      respond(res, 200, 'Signed in', 'You can close this tab and go back to the game.');
    } else {
      outcome = {
        kind: 'error',
        error: error ?? 'invalid_response',
        description: params.get('error_description') ?? undefined,
      };
      respond(
        res,
        200,
        'Sign-in cancelled',
        'Nothing was linked. You can close this tab and go back to the game.',
      );
    }
    this.#done = true;
    this.#onOutcome?.(outcome);
  }
}

function respond(res: ServerResponse, status: number, title: string, text: string): void {
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'close',
  });
  res.end(body);
}

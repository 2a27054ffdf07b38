import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import type { EmulatorLog } from '../log.js';

/** One URL mapping of the developer portal: requests under `prefix` go to `target`. */
export interface UrlMapping {
  /** A path prefix: `/` (the root mapping, the game's own server) or e.g. `/api`. */
  prefix: string;
  /** An `http:` URL the prefix maps to, e.g. `http://127.0.0.1:5173`. */
  target: string;
}

/** How long the proxy waits for the game's server to answer. */
export const PROXY_TIMEOUT_MS = 30_000;

/** Headers that belong to one connection, not to the request or response (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** The proxy host of an application: `<application_id>.localhost` (browsers send loopback there by themselves). */
export function activityHost(applicationId: string): string {
  return `${applicationId}.localhost`;
}

/** The proxy origin of an application on the emulator whose HTTP origin is `http`: `http://<id>.localhost:<port>`. */
export function activityOrigin(http: string, applicationId: string): string {
  return `http://${activityHost(applicationId)}:${new URL(http).port}`;
}

/**
 * Checks URL mappings: each prefix starts with `/` and is unique, each target an `http:` URL. Throws a
 * RangeError naming the bad one.
 */
export function checkMappings(mappings: readonly UrlMapping[]): UrlMapping[] {
  const seen = new Set<string>();
  return mappings.map((m) => {
    const prefix = m.prefix === '/' ? '/' : m.prefix.replace(/\/+$/, '');
    if (
      !prefix.startsWith('/') ||
      prefix.includes('?') ||
      prefix.includes('#') ||
      prefix.startsWith('/.proxy') ||
      prefix.startsWith('/.emulator')
    ) {
      throw new RangeError(`activity URL mapping: "${m.prefix}" is not a path prefix`);
    }
    if (seen.has(prefix)) throw new RangeError(`activity URL mapping: "${prefix}" is mapped twice`);
    seen.add(prefix);
    let target: URL;
    try {
      target = new URL(m.target);
    } catch {
      throw new RangeError(`activity URL mapping: "${m.target}" is not a URL`);
    }
    if (target.protocol !== 'http:')
      throw new RangeError(`activity URL mapping: "${m.target}" is not an http: URL`);
    return { prefix, target: target.href.replace(/\/$/, '') };
  });
}

/**
 * Where a request path goes, by the platform's mapping rules (the document's 2024-08-28 entry, as relaxed): a
 * leading `/.proxy` is dropped, so the prefixed and the unprefixed path reach the same place (a `/api` mapping
 * works either way); then the longest matching prefix, on a segment boundary, wins. Undefined when no mapping
 * matches.
 */
export function mapPath(mappings: readonly UrlMapping[], path: string): string | undefined {
  const [pathname, search] = splitOnce(path, '?');
  const bare =
    pathname === '/.proxy'
      ? '/'
      : pathname.startsWith('/.proxy/')
        ? pathname.slice('/.proxy'.length)
        : pathname;
  let best: UrlMapping | undefined;
  for (const m of mappings) {
    const fits = m.prefix === '/' || bare === m.prefix || bare.startsWith(`${m.prefix}/`);
    if (fits && (best === undefined || m.prefix.length > best.prefix.length)) best = m;
  }
  if (!best) return undefined;
  const rest = best.prefix === '/' ? bare : bare.slice(best.prefix.length) || '/';
  return `${best.target}${rest}${search === '' ? '' : `?${search}`}`;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * The Activity proxy of the application: requests to `<application_id>.localhost:<port>` go through the URL
 * mappings to the game's own servers, streamed both ways (nothing is held whole), with hop-by-hop headers
 * dropped. An unmapped path is 404, an unreachable or silent server 502 / 504, each with a log line.
 */
export class ActivityProxy {
  readonly #host: string;
  readonly #log: EmulatorLog;
  #mappings: UrlMapping[];

  constructor(applicationId: string, mappings: readonly UrlMapping[], log: EmulatorLog) {
    this.#host = activityHost(applicationId);
    this.#mappings = checkMappings(mappings);
    this.#log = log;
  }

  /** Replaces the URL mappings (the portal's URL Mappings page). */
  setMappings(mappings: readonly UrlMapping[]): void {
    this.#mappings = checkMappings(mappings);
  }

  /** The current mappings. */
  mappings(): UrlMapping[] {
    return this.#mappings.map((m) => ({ ...m }));
  }

  /** Whether a request is for the proxy host. */
  owns(req: IncomingMessage): boolean {
    const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    return host === this.#host;
  }

  /** Forwards one request. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '/';
    const target = path.startsWith('/') ? mapPath(this.#mappings, path) : undefined;
    if (target === undefined) {
      this.#log.line(
        'activity',
        `proxy: no URL mapping for ${req.method ?? 'GET'} ${path.split('?')[0] ?? ''}`,
      );
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No URL mapping for this path\n');
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    const upstream = httpRequest(
      target,
      { method: req.method ?? 'GET', headers, timeout: PROXY_TIMEOUT_MS },
      (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    let failed = false;
    const fail = (status: number, why: string): void => {
      if (failed) return;
      failed = true;
      this.#log.line('activity', `proxy: ${req.method ?? 'GET'} ${path.split('?')[0] ?? ''} failed: ${why}`);
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain' }).end(`${why}\n`);
      else res.destroy();
    };
    upstream.on('timeout', () => {
      upstream.destroy();
      fail(504, 'the game server did not answer in time');
    });
    upstream.on('error', (error) => {
      fail(502, `the game server could not be reached (${error.message})`);
    });
    req.on('error', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /**
   * Forwards a WebSocket (or other) upgrade through the mappings: the handshake goes to the game's server, and
   * once it switches protocols the two sockets are piped. An unmapped path, a refusal or an unreachable server
   * ends the client's socket with the answer (or 502), logged.
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {
      // A client that resets mid-handshake must not take the process down.
    });
    const path = req.url ?? '/';
    const what = `upgrade ${path.split('?')[0] ?? ''}`;
    const target = path.startsWith('/') ? mapPath(this.#mappings, path) : undefined;
    if (target === undefined) {
      this.#log.line('activity', `proxy: no URL mapping for ${what}`);
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && name !== 'host') headers[name] = value;
    }
    const upstream = httpRequest(target, { method: req.method ?? 'GET', headers, timeout: PROXY_TIMEOUT_MS });
    const refuse = (status: string, why: string): void => {
      this.#log.line('activity', `proxy: ${what} failed: ${why}`);
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    upstream.on('timeout', () => {
      upstream.destroy();
      refuse('504 Gateway Timeout', 'the game server did not answer in time');
    });
    upstream.on('error', (error) => {
      refuse('502 Bad Gateway', `the game server could not be reached (${error.message})`);
    });
    upstream.on('response', (answer) => {
      // The game's server answered without switching protocols: pass its answer on, then hang up.
      socket.write(
        `HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}\r\nConnection: close\r\n\r\n`,
      );
      answer.pipe(socket);
    });
    upstream.on('upgrade', (answer, upstreamSocket: Socket, upstreamHead: Buffer) => {
      upstreamSocket.setTimeout(0);
      // Messages of a game's WebSocket are small and interactive: no coalescing delay on either side.
      upstreamSocket.setNoDelay(true);
      if ('setNoDelay' in socket && typeof socket.setNoDelay === 'function')
        (socket as Socket).setNoDelay(true);
      const lines = [`HTTP/1.1 101 ${answer.statusMessage ?? 'Switching Protocols'}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        lines.push(`${answer.rawHeaders[i] ?? ''}: ${answer.rawHeaders[i + 1] ?? ''}`);
      }
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (upstreamHead.length > 0) socket.write(upstreamHead);
      if (head.length > 0) upstreamSocket.write(head);
      upstreamSocket.on('error', () => socket.destroy());
      socket.on('error', () => upstreamSocket.destroy());
      upstreamSocket.on('close', () => socket.destroy());
      socket.on('close', () => upstreamSocket.destroy());
      upstreamSocket.pipe(socket);
      socket.pipe(upstreamSocket);
    });
    upstream.end();
  }
}

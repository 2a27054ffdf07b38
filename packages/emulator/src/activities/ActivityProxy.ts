import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import type { EmulatorLog } from '../log.js';
import { framePolicy } from './framePolicy.js';

/** One URL mapping of the developer portal: requests under `prefix` go to `target`. */
export interface UrlMapping {
  /** A path prefix: `/` (the root mapping, the game's own server) or e.g. `/api`. */
  prefix: string;
  /** An `http:` URL the prefix maps to, e.g. `http://127.0.0.1:5173`. */
  target: string;
}

/** How long the proxy waits for the game's server to answer. */
export const PROXY_TIMEOUT_MS = 30_000;

/**
 * Headers that belong to one connection, not to the request or response (RFC 9110 §7.6.1), with the
 * non-standard `proxy-connection` some clients still send; `host` is the proxy's and is set anew for the target.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/**
 * The end-to-end headers of a request or response: without {@link HOP_BY_HOP} and without those its
 * `Connection` header names, which the sender meant for the next hop only.
 */
function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = connectionTokens(headers);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value;
  }
  return out;
}

/** The header names a `Connection` header lists, lower-cased (repeated headers arrive joined by commas). */
function connectionTokens(headers: IncomingHttpHeaders): Set<string> {
  const value = headers.connection;
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    text
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter((t) => t !== ''),
  );
}

/** A path cut for a log line: a hostile request may send kilobytes of it. */
function shown(path: string): string {
  const bare = path.split('?')[0] ?? '';
  return bare.length > 200 ? `${bare.slice(0, 200)}…` : bare;
}

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
      prefix.includes('\\') ||
      prefix.split('/').some((segment) => dotSegment(segment) !== undefined) ||
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

/** Where a request goes: the target URL, or why it goes nowhere (400 for a malformed path, 404 unmapped). */
export type Route = { target: string } | { status: 400 | 404; why: string };

/**
 * `.` or `..` for a dot segment, percent-encoded dots included (`%2e`, `.%2E`…), since the URL parser the
 * request goes out through reads them the same way; undefined for any other segment.
 */
function dotSegment(segment: string): '.' | '..' | undefined {
  if (segment.length > 6) return undefined;
  const dots = segment.replace(/%2e/gi, '.');
  return dots === '.' || dots === '..' ? dots : undefined;
}

/** A segment that becomes a dot segment once an encoded slash in it is decoded, as some servers do first. */
function hidesDotSegment(segment: string): boolean {
  return /%2f|%5c/i.test(segment) && segment.split(/%2f|%5c/i).some((part) => dotSegment(part) !== undefined);
}

/** The mapping whose prefix is the longest one `path` starts with, on a segment boundary. */
function bestMapping(mappings: readonly UrlMapping[], path: string): UrlMapping | undefined {
  let best: UrlMapping | undefined;
  for (const m of mappings) {
    const fits = m.prefix === '/' || path === m.prefix || path.startsWith(`${m.prefix}/`);
    if (fits && (best === undefined || m.prefix.length > best.prefix.length)) best = m;
  }
  return best;
}

/**
 * Where a request path goes, by the platform's mapping rules (the document's 2024-08-28 entry, as relaxed): a
 * leading `/.proxy` is dropped, so the prefixed and the unprefixed path reach the same place (a `/api` mapping
 * works either way); then the longest matching prefix, on a segment boundary, wins.
 *
 * The path is read as a browser and the outgoing URL parser read it: backslashes are slashes, and dot
 * segments (percent-encoded ones too) are resolved before matching. Browsers resolve them before sending, so
 * a path that still has them comes from another client, and one whose dot segments climb above the root
 * (or `/.proxy`), or out of the mapping its path starts in, is refused: otherwise `/api/../../secret` would
 * reach `/secret` on the `/api` mapping's server, outside the part of it the mapping gives out.
 */
export function routePath(mappings: readonly UrlMapping[], path: string): Route {
  const [pathname, search] = splitOnce(path, '?');
  const segments = pathname.replace(/\\/g, '/').split('/').slice(1);
  if (segments[0] === '.proxy') segments.shift();
  const resolved: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (hidesDotSegment(segment))
      return { status: 400, why: 'the path hides a dot segment behind an encoded slash' };
    const dot = dotSegment(segment);
    if (dot === undefined) {
      resolved.push(segment);
      continue;
    }
    if (dot === '..') {
      if (resolved.length === 0) return { status: 400, why: 'the path climbs above the root' };
      resolved.pop();
    }
    // A dot segment at the end names a directory: `/a/b/..` is `/a/`.
    if (i === segments.length - 1) resolved.push('');
  }
  const bare = `/${resolved.join('/')}`;
  const best = bestMapping(mappings, bare);
  if (best !== bestMapping(mappings, `/${segments.join('/')}`)) {
    return { status: 400, why: 'the path climbs out of its URL mapping' };
  }
  if (!best) return { status: 404, why: 'no URL mapping for this path' };
  const rest = best.prefix === '/' ? bare : bare.slice(best.prefix.length) || '/';
  const target = `${best.target}${rest}${search === '' ? '' : `?${search}`}`;
  // The outgoing request parses the URL again; whatever that parser still reads differently (a tab it drops
  // inside `..`, say) must not take the request out of the target either.
  const base = new URL(best.target);
  let sent: URL;
  try {
    sent = new URL(target);
  } catch {
    return { status: 400, why: 'the path is not a URL path' };
  }
  const root = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  if (sent.origin !== base.origin || (sent.pathname !== base.pathname && !sent.pathname.startsWith(root))) {
    return { status: 400, why: 'the path climbs out of its URL mapping' };
  }
  return { target };
}

/** The target URL of a request path (see {@link routePath}), or undefined when it goes nowhere. */
export function mapPath(mappings: readonly UrlMapping[], path: string): string | undefined {
  const route = routePath(mappings, path);
  return 'target' in route ? route.target : undefined;
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
  readonly #cdnOrigin: string | null;
  #mappings: UrlMapping[];

  /**
   * @param cdnOrigin - the platform CDN's origin the game's documents may load images from; null turns the
   *   Content Security Policy of the game's documents off (the emulator's debugging switch).
   */
  constructor(
    applicationId: string,
    mappings: readonly UrlMapping[],
    log: EmulatorLog,
    cdnOrigin: string | null = null,
  ) {
    this.#host = activityHost(applicationId);
    this.#mappings = checkMappings(mappings);
    this.#log = log;
    this.#cdnOrigin = cdnOrigin;
  }

  /**
   * The answer's headers as the frame gets them: end to end only, and on an HTML document the platform's
   * Content Security Policy beside any the game's server set (a browser enforces each).
   */
  #answerHeaders(req: IncomingMessage, answer: IncomingMessage): Record<string, string | string[]> {
    const headers = endToEnd(answer.headers);
    const type = (answer.headers['content-type'] ?? '').toLowerCase();
    if (this.#cdnOrigin === null || !type.startsWith('text/html')) return headers;
    // owns() matched the Host header to the proxy host, so it names the origin the frame is on.
    const policy = framePolicy(`http://${req.headers.host ?? this.#host}`, this.#cdnOrigin);
    const own = headers['content-security-policy'];
    headers['content-security-policy'] =
      own === undefined ? policy : [...(Array.isArray(own) ? own : [own]), policy];
    return headers;
  }

  /** Replaces the URL mappings (the portal's URL Mappings page). */
  setMappings(mappings: readonly UrlMapping[]): void {
    this.#mappings = checkMappings(mappings);
  }

  /** The current mappings. */
  mappings(): UrlMapping[] {
    return this.#mappings.map((m) => ({ ...m }));
  }

  /** The route of a request path; a refusal is logged. */
  #route(path: string, what: string): Route {
    const route: Route = path.startsWith('/')
      ? routePath(this.#mappings, path)
      : { status: 404, why: 'no URL mapping for this path' };
    if ('target' in route) return route;
    this.#log.line(
      'activity',
      route.status === 404 ? `proxy: no URL mapping for ${what}` : `proxy: refused ${what}: ${route.why}`,
    );
    return route;
  }

  /** Whether a request is for the proxy host. */
  owns(req: IncomingMessage): boolean {
    const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    return host === this.#host;
  }

  /** Forwards one request. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const path = req.url ?? '/';
    const route = this.#route(path, `${req.method ?? 'GET'} ${shown(path)}`);
    if (!('target' in route)) {
      const text = route.status === 404 ? 'No URL mapping for this path' : route.why;
      res.writeHead(route.status, { 'content-type': 'text/plain' }).end(`${text}\n`);
      return;
    }
    const { target } = route;
    const upstream = httpRequest(
      target,
      { method: req.method ?? 'GET', headers: endToEnd(req.headers), timeout: PROXY_TIMEOUT_MS },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, this.#answerHeaders(req, answer));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    let failed = false;
    const fail = (status: number, why: string): void => {
      if (failed) return;
      failed = true;
      this.#log.line('activity', `proxy: ${req.method ?? 'GET'} ${shown(path)} failed: ${why}`);
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
    const what = `upgrade ${shown(path)}`;
    const route = this.#route(path, what);
    if (!('target' in route)) {
      const status = route.status === 404 ? '404 Not Found' : '400 Bad Request';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const { target } = route;
    // The upgrade itself is the one hop-by-hop request the game's server must see; nothing else of this hop.
    const headers = endToEnd(req.headers);
    if (req.headers.upgrade !== undefined) {
      headers.connection = 'Upgrade';
      headers.upgrade = req.headers.upgrade;
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
      const named = connectionTokens(answer.headers);
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        const name = answer.rawHeaders[i] ?? '';
        const lower = name.toLowerCase();
        if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
        lines.push(`${name}: ${answer.rawHeaders[i + 1] ?? ''}`);
      }
      lines.push('Connection: Upgrade');
      if (answer.headers.upgrade !== undefined) lines.push(`Upgrade: ${answer.headers.upgrade}`);
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

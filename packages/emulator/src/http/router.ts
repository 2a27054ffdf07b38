import type { IncomingMessage, ServerResponse } from 'node:http';

import type { EmulatorLog } from '../log.js';
import { ApiError, invalidFormBody } from '../platform/errors.js';
import { decodeUtf8, mediaType, parseUrlEncoded, readBody, type Fields } from './body.js';
import { apiErrorReply, BodyError, HtmlError, HttpError, OAuthError } from './errors.js';
import { parseJsonBody } from './jsonBody.js';
import { readMultipart, type MultipartBody, type MultipartLimits } from './multipart.js';
import type { HttpRateLimits } from './rateLimits.js';
import { jsonReply, type Reply } from './replies.js';

/** How a route reports errors that happen before its own logic (bad body, too large, …). */
export type ErrorStyle = 'api' | 'oauth' | 'html';

/** Where a route lives: at the origin (`/oauth2/authorize`) or under the API base (`/api/v10/...`). */
export type RouteScope = 'root' | 'api';

/** HTTP methods the emulator routes. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route handler sees of a request. */
export interface RouteRequest {
  readonly method: Method;
  /** The matched route pattern, e.g. `/users/@me`. */
  readonly pattern: string;
  /** Values of `:name` segments in the pattern, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly raw: IncomingMessage;
  /** The query string, parsed strictly. */
  query(): Fields;
  /** An `application/x-www-form-urlencoded` body; any other media type is an error. */
  form(): Promise<Fields>;
  /** A JSON body (a form-encoded body is read as an object of strings, as the platform accepts both). */
  json(): Promise<unknown>;
  /** Whether the body is `multipart/form-data`. */
  isMultipart(): boolean;
  /** A `multipart/form-data` body, streamed and bounded by `limits` (see readMultipart). */
  multipart(limits: MultipartLimits): Promise<MultipartBody>;
}

/** One endpoint. */
export interface Route {
  method: Method;
  scope: RouteScope;
  /** Segments separated by `/`; a segment `:name` matches any one segment. */
  pattern: string;
  style: ErrorStyle;
  /** The largest non-multipart body the route reads. @defaultValue MAX_BODY_BYTES (64 KiB) */
  maxBodyBytes?: number;
  handle(request: RouteRequest): Reply | Promise<Reply>;
}

/** An endpoint under the API base paths that answers errors in the API's JSON style, as most do. */
export function apiRoute(
  method: Method,
  pattern: string,
  handle: Route['handle'],
  options: { maxBodyBytes?: number } = {},
): Route {
  return { method, scope: 'api', pattern, style: 'api', handle, ...options };
}

interface CompiledRoute extends Route {
  segments: string[];
}

/** The API base paths: the versioned one the SDK uses and the unversioned alias the platform also serves. */
const API_PREFIXES = ['/api/v10', '/api'];

function splitTarget(target: string): { path: string; search: string } {
  let rest = target;
  // Absolute-form targets (`GET http://host/path`) come from proxies; keep only the path.
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length) || '/';
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  return q < 0 ? { path: rest, search: '' } : { path: rest.slice(0, q), search: rest.slice(q + 1) };
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const p = pattern[i] ?? '';
    const a = actual[i] ?? '';
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(a);
      } catch {
        return null;
      }
      if (a.length === 0) return null;
    } else if (p !== a) {
      return null;
    }
  }
  return params;
}

/** Path segments that follow these carry a secret: an interaction's token, a webhook's token. */
const SECRET_AFTER = new Set(['interactions', 'webhooks']);

/**
 * A path safe to print for a request no route matched: no control characters, bounded length, and no
 * secrets. The token of `/interactions/{id}/{token}/…` and `/webhooks/{id}/{token}/…` becomes `:token`, and so
 * does any other long segment that is not an id, since a mistyped route can carry a secret anywhere.
 */
export function printablePath(path: string): string {
  const segments = path.split('/');
  const clean = segments
    .map((segment, i) => {
      if (i >= 2 && SECRET_AFTER.has(segments[i - 2] ?? '') && segment !== '') return ':token';
      if (segment.length > 24 && !/^[0-9]+$/.test(segment)) return ':token';
      return segment.replace(/[^\x20-\x7e]/g, '?');
    })
    .join('/');
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}

function bodyErrorReply(style: ErrorStyle, error: BodyError): Reply {
  const status = error.problem === 'too_large' ? 413 : 400;
  if (style === 'oauth') {
    const description =
      error.problem === 'unsupported_media_type'
        ? 'The request body must be application/x-www-form-urlencoded'
        : error.problem === 'too_large'
          ? 'The request body is too large'
          : `Malformed request: ${error.message}`;
    return new OAuthError(status, 'invalid_request', description).toReply();
  }
  if (style === 'html') {
    return new HtmlError(
      status,
      'Bad request',
      error.problem === 'too_large' ? 'The request is too large.' : `Malformed request: ${error.message}.`,
    ).toReply();
  }
  if (error.problem === 'too_large')
    return apiErrorReply(new ApiError(413, 40005, 'Request entity too large'));
  if (error.problem === 'too_deep') return bodyWideError('JSON_DEPTH_EXCEEDED', error.message);
  if (error.problem === 'bad_multipart') return bodyWideError('MULTIPART_BODY_INVALID', error.message);
  if (error.problem === 'unsupported_media_type') {
    return apiErrorReply(
      invalidFormBody({
        _content_type: {
          code: 'CONTENT_TYPE_INVALID',
          message:
            'Expected "Content-Type" header to be one of {application/json, application/x-www-form-urlencoded}.',
        },
      }),
    );
  }
  return apiErrorReply(new ApiError(400, 50109, 'The request body contains invalid JSON.'));
}

/** A 50035 about the body as a whole: the error sits at the root of the `errors` tree, where no field is. */
function bodyWideError(code: string, message: string): Reply {
  return apiErrorReply(
    new ApiError(400, 50035, 'Invalid Form Body', {
      errors: { _errors: [{ code, message: `${message[0]?.toUpperCase() ?? ''}${message.slice(1)}.` }] },
    }),
  );
}

/**
 * Matches requests to routes, parses bodies on demand, turns thrown errors into responses and counts
 * requests per route pattern. Nothing a client sends can make it throw: every failure becomes a 4xx,
 * and a bug in a route becomes a 500 with a log line.
 */
export class Router {
  readonly #routes: CompiledRoute[] = [];
  readonly #counts = new Map<string, number>();
  readonly #log: EmulatorLog;
  #limits: HttpRateLimits | undefined;
  #latencyMs = 0;

  constructor(log: EmulatorLog) {
    this.#log = log;
  }

  /**
   * Applies HTTP rate limits to the API routes from now on. Throws a `RangeError` when the limits name a route
   * that was not added.
   */
  limitWith(limits: HttpRateLimits): void {
    limits.checkRoutes(this.#routes.map((r) => `${r.method} ${r.pattern}`));
    this.#limits = limits;
  }

  /** Holds every API reply back by `ms` after its request was processed; see EmulatorOptions.httpLatencyMs. */
  delayApiReplies(ms: number): void {
    this.#latencyMs = ms;
  }

  /** Adds routes. */
  add(routes: Route[]): void {
    for (const route of routes) this.#routes.push({ ...route, segments: route.pattern.split('/') });
  }

  /**
   * How many requests matched `method` + `pattern` (the pattern without the API prefix) and were handled by the
   * route; a request refused with 429 by a rate limit is not counted, since the route never saw it.
   */
  count(method: string, pattern: string): number {
    return this.#counts.get(`${method.toUpperCase()} ${pattern}`) ?? 0;
  }

  /** Answers one request; never rejects. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.on('error', () => {
      // A client that resets mid-request is not our problem; without a listener it would be fatal.
    });
    const method = (req.method ?? 'GET').toUpperCase();
    const { path, search } = splitTarget(req.url ?? '/');
    let label = printablePath(path);
    let reply: Reply;
    try {
      const found = this.#find(method, path);
      if (found.kind === 'route') {
        label = found.route.pattern;
        const key = `${found.route.method} ${found.route.pattern}`;
        // Rate limits apply to the API, not to the browser pages at the origin.
        const verdict =
          this.#limits && found.route.scope === 'api'
            ? this.#limits.check({ routeKey: key, params: found.params, raw: req })
            : undefined;
        if (verdict?.kind === 'limited') {
          // A 429'd request is not processed at all, so a client may safely send it again.
          this.#log.line(
            'http',
            `rate limited (${verdict.scope}) ${method} ${label}: retry after ${verdict.retryAfter} s`,
          );
          reply = verdict.reply;
        } else {
          this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
          reply = await this.#run(found.route, found.params, req, search);
          if (verdict) reply = { ...reply, headers: { ...reply.headers, ...verdict.headers } };
          if (this.#latencyMs > 0 && found.route.scope === 'api') {
            await new Promise((resolve) => setTimeout(resolve, this.#latencyMs));
          }
        }
      } else if (found.kind === 'method') {
        reply = jsonReply(
          405,
          { message: '405: Method Not Allowed', code: 0 },
          { Allow: found.allow.join(', ') },
        );
      } else {
        reply = jsonReply(404, { message: '404: Not Found', code: 0 });
      }
    } catch (error) {
      this.#log.line(
        'http',
        `internal error on ${method} ${label}: ${error instanceof Error ? error.message : String(error)}`,
      );
      reply = jsonReply(500, { message: '500: Internal Server Error', code: 0 });
    }
    this.#write(res, reply);
    this.#log.line('http', `${method} ${label} ${reply.status}`);
  }

  async #run(
    route: CompiledRoute,
    params: Record<string, string>,
    req: IncomingMessage,
    search: string,
  ): Promise<Reply> {
    let bodyPromise: Promise<Buffer> | undefined;
    const body = (): Promise<Buffer> => (bodyPromise ??= readBody(req, route.maxBodyBytes));
    const request: RouteRequest = {
      method: route.method,
      pattern: route.pattern,
      params,
      raw: req,
      query: () => parseUrlEncoded(search),
      form: async () => {
        if (mediaType(req.headers['content-type']) !== 'application/x-www-form-urlencoded') {
          throw new BodyError('unsupported_media_type', 'expected application/x-www-form-urlencoded');
        }
        return parseUrlEncoded(decodeUtf8(await body()));
      },
      json: async () => {
        const type = mediaType(req.headers['content-type']);
        if (type === 'application/x-www-form-urlencoded') {
          return Object.fromEntries(parseUrlEncoded(decodeUtf8(await body())));
        }
        if (type !== undefined && type !== 'application/json') {
          throw new BodyError('unsupported_media_type', 'expected application/json');
        }
        return parseJsonBody(decodeUtf8(await body()));
      },
      isMultipart: () => mediaType(req.headers['content-type']) === 'multipart/form-data',
      multipart: (limits) => {
        if (mediaType(req.headers['content-type']) !== 'multipart/form-data') {
          throw new BodyError('unsupported_media_type', 'expected multipart/form-data');
        }
        if (bodyPromise) throw new BodyError('malformed', 'the body was already read');
        bodyPromise = Promise.resolve(Buffer.alloc(0));
        return readMultipart(req, limits);
      },
    };
    try {
      return await route.handle(request);
    } catch (error) {
      if (error instanceof ApiError) return apiErrorReply(error);
      if (error instanceof HttpError) return error.toReply();
      if (error instanceof BodyError) {
        const reply = bodyErrorReply(route.style, error);
        // After an oversized or unreadable multipart body the connection may hold unread bytes; closing it is
        // the clean way out.
        if (error.problem === 'too_large' || error.problem === 'bad_multipart')
          reply.headers.Connection = 'close';
        return reply;
      }
      throw error;
    }
  }

  #find(
    method: string,
    path: string,
  ):
    | { kind: 'route'; route: CompiledRoute; params: Record<string, string> }
    | { kind: 'method'; allow: string[] }
    | { kind: 'none' } {
    let scope: RouteScope = 'root';
    let rest = path;
    for (const prefix of API_PREFIXES) {
      if (path === prefix || path.startsWith(`${prefix}/`)) {
        scope = 'api';
        rest = path.slice(prefix.length) || '/';
        break;
      }
    }
    const segments = rest.split('/');
    const allow: string[] = [];
    // HEAD is answered as GET; Node leaves the body out by itself.
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const route of this.#routes) {
      if (route.scope !== scope) continue;
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === wanted) return { kind: 'route', route, params };
      allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'method', allow } : { kind: 'none' };
  }

  #write(res: ServerResponse, reply: Reply): void {
    if (res.headersSent || res.destroyed) return;
    const headers: Record<string, string | number> = { ...reply.headers };
    const body = reply.body ?? '';
    headers['Content-Length'] = Buffer.byteLength(body);
    res.writeHead(reply.status, headers);
    res.end(body);
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';

import { MAX_JSON_DEPTH } from '@sdkpp/protocol';
import { readBody, decodeUtf8 } from '../http/body.js';
import { BodyError } from '../http/errors.js';
import { parseJsonBody } from '../http/jsonBody.js';
import type { EmulatorLog } from '../log.js';
import { randomToken } from '../random.js';
import type { UserRecord } from '../store/types.js';
import type { Emulator } from '../types.js';
import { ActionError, findAction, type ActionTarget } from './actions.js';
import { rememberDashboardToken } from './adminToken.js';
import { dashboardScript } from './appScript.js';
import { DashboardGuard, type Refusal } from './guard.js';
import { LiveFeed } from './LiveFeed.js';
import { DASHBOARD_CSP, DASHBOARD_ICON, ICON_PATH, SCRIPT_PATH, STYLE_PATH, dashboardPage } from './page.js';
import type { DashboardState } from './pageData.js';
import { dashboardState } from './state.js';
import { DASHBOARD_STYLE } from './style.js';

/** The dashboard's path under the emulator's origin. */
export const DASHBOARD_PATH = '/dashboard';

/** A JSON body larger than this is refused: actions take a few short fields. */
const MAX_ACTION_BODY = 16 * 1024;

/** What the dashboard needs of a running emulator. */
export interface DashboardDeps {
  /** The emulator's test API: state and actions go through it. */
  emulator: Emulator;
  /** Every user but the application's bot (provisional and banned ones too). */
  users(): readonly UserRecord[];
  /** A user by id or username (the bot included; actions refuse it). */
  findUser(idOrName: string): UserRecord | undefined;
  /** The log the dashboard follows. */
  log: EmulatorLog;
}

const COMMON_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function send(res: ServerResponse, status: number, type: string, body: string, extra = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    ...extra,
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown, extra = {}): void {
  send(res, status, 'application/json', JSON.stringify(value), extra);
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  sendJson(res, refusal.status, { error: refusal.error, message: refusal.message });
}

/**
 * The emulator's dashboard at `<http>/dashboard`: a page showing users, relationships, lobbies, calls and
 * gateway sessions live, with a request and event log, and the actions a tester needs. Only loopback clients
 * that name the emulator's host may use it; actions also need the page's token and a same-origin request.
 */
export class Dashboard {
  /** The page's URL. */
  readonly url: string;
  readonly #deps: DashboardDeps;
  readonly #guard: DashboardGuard;
  readonly #token = randomToken(24);
  readonly #feed: LiveFeed;
  readonly #target: ActionTarget;

  constructor(deps: DashboardDeps) {
    this.#deps = deps;
    this.url = `${deps.emulator.http}${DASHBOARD_PATH}`;
    this.#guard = new DashboardGuard(deps.emulator.http, this.#token);
    rememberDashboardToken(deps.emulator, this.#token);
    this.#target = {
      emulator: deps.emulator,
      findUser: (idOrName) => {
        const user = deps.findUser(idOrName);
        return user?.bot === true ? undefined : user;
      },
    };
    this.#feed = new LiveFeed(() => JSON.stringify(this.state()), deps.log);
  }

  /** Whether a request is the dashboard's (its path is `/dashboard` or below). */
  owns(req: IncomingMessage): boolean {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
  }

  /** The current state, as the page and `GET /dashboard/api/state` show it. */
  state(): DashboardState {
    return dashboardState(this.#deps.emulator, this.#deps.users());
  }

  /** A gateway dispatch, shown in the pages' log by event name and user (never its payload). */
  dispatched(userId: string, event: string): void {
    const user = this.#deps.findUser(userId);
    this.#feed.note({
      time: Date.now(),
      area: 'dispatch',
      message: `${event} → ${user?.username ?? userId}`,
    });
  }

  /** Answers a request {@link Dashboard.owns}; never rejects. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.on('error', () => {
      // A client that resets mid-request is not our problem; without a listener it would be fatal.
    });
    try {
      await this.#route(req, res);
    } catch (error) {
      this.#deps.log.line(
        'dashboard',
        `internal error: ${error instanceof Error ? error.message : String(error)}`,
      );
      sendJson(res, 500, { error: 'internal', message: 'Internal error' });
    }
  }

  /** Ends the event streams. */
  close(): void {
    this.#feed.close();
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const access = this.#guard.checkAccess(req);
    if (access) {
      refuse(res, access);
      return;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const read = method === 'GET' || method === 'HEAD';
    if (path === DASHBOARD_PATH || path === `${DASHBOARD_PATH}/`) {
      if (!read) {
        this.#methodNotAllowed(res, 'GET');
        return;
      }
      const { emulator } = this.#deps;
      const application = {
        id: emulator.applicationId,
        publicKey: emulator.applicationPublicKey,
        clientSecret: emulator.clientSecret,
      };
      send(res, 200, 'text/html; charset=utf-8', dashboardPage(this.#token, emulator.http, application), {
        'Content-Security-Policy': DASHBOARD_CSP,
        'X-Frame-Options': 'DENY',
      });
      return;
    }
    if (path === SCRIPT_PATH || path === STYLE_PATH) {
      if (!read) {
        this.#methodNotAllowed(res, 'GET');
        return;
      }
      if (path === STYLE_PATH) {
        send(res, 200, 'text/css; charset=utf-8', DASHBOARD_STYLE);
        return;
      }
      const script = dashboardScript();
      if (script instanceof Error) {
        this.#deps.log.line('dashboard', script.message);
        send(res, 500, 'text/plain; charset=utf-8', script.message);
        return;
      }
      send(res, 200, 'text/javascript; charset=utf-8', script);
      return;
    }
    if (path === ICON_PATH) {
      if (!read) {
        this.#methodNotAllowed(res, 'GET');
        return;
      }
      send(res, 200, 'image/svg+xml', DASHBOARD_ICON);
      return;
    }
    if (path === `${DASHBOARD_PATH}/events`) {
      if (method !== 'GET') {
        this.#methodNotAllowed(res, 'GET');
        return;
      }
      this.#feed.open(res);
      return;
    }
    if (path === `${DASHBOARD_PATH}/api/state`) {
      if (!read) {
        this.#methodNotAllowed(res, 'GET');
        return;
      }
      sendJson(res, 200, this.state());
      return;
    }
    const apiPrefix = `${DASHBOARD_PATH}/api/`;
    const found = path.startsWith(apiPrefix) ? findAction(path.slice(apiPrefix.length).split('/')) : null;
    if (!found) {
      sendJson(res, 404, { error: 'not_found', message: `Nothing at ${path.slice(0, 80)}` });
      return;
    }
    if (method !== 'POST') {
      this.#methodNotAllowed(res, 'POST');
      return;
    }
    await this.#runAction(req, res, found);
  }

  async #runAction(
    req: IncomingMessage,
    res: ServerResponse,
    found: NonNullable<ReturnType<typeof findAction>>,
  ): Promise<void> {
    const label = `POST /dashboard/api/${found.action.pattern.join('/')}`;
    const refusal = this.#guard.checkAction(req);
    if (refusal) {
      // Drain the body so the connection stays usable for the answer.
      req.resume();
      this.#deps.log.line('dashboard', `${label} refused (${refusal.error})`);
      refuse(res, refusal);
      return;
    }
    let body: unknown;
    try {
      const text = decodeUtf8(await readBody(req, MAX_ACTION_BODY));
      body = text.trim() === '' ? {} : parseJsonBody(text);
    } catch (error) {
      const tooLarge = error instanceof BodyError && error.problem === 'too_large';
      const tooDeep = error instanceof BodyError && error.problem === 'too_deep';
      sendJson(
        res,
        tooLarge ? 413 : 400,
        tooLarge
          ? { error: 'too_large', message: `The body exceeds ${MAX_ACTION_BODY} bytes` }
          : tooDeep
            ? { error: 'bad_json', message: `The body's JSON nests deeper than ${MAX_JSON_DEPTH} levels` }
            : { error: 'bad_json', message: 'The body is not valid JSON' },
        tooLarge ? { Connection: 'close' } : {},
      );
      return;
    }
    try {
      const { status, value } = await found.action.run(this.#target, found.params, body);
      this.#deps.log.line('dashboard', `${label} ${status}`);
      sendJson(res, status, value);
    } catch (error) {
      if (!(error instanceof ActionError)) throw error;
      this.#deps.log.line('dashboard', `${label} ${error.status} (${error.error})`);
      sendJson(res, error.status, { ...error.extra, error: error.error, message: error.message });
    }
  }

  #methodNotAllowed(res: ServerResponse, allow: string): void {
    sendJson(res, 405, { error: 'method_not_allowed', message: `Use ${allow}` }, { Allow: allow });
  }
}

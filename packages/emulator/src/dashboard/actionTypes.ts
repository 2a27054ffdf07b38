import type { UserRecord } from '../store/types.js';
import type { Emulator } from '../types.js';

/** A refused action: the HTTP status and the JSON error body `{ error, message }`. */
export class ActionError extends Error {
  /** The HTTP status (400, 404, 409, 429). */
  readonly status: number;
  /** A short machine-readable reason. */
  readonly error: string;
  /** More fields of the body (a slowmode refusal's platform `code` and `retry_after`). */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(status: number, error: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ActionError';
    this.status = status;
    this.error = error;
    this.extra = extra;
  }
}

/** What an action needs: the emulator's test API and its users. */
export interface ActionTarget {
  /** The running emulator. */
  emulator: Emulator;
  /** A user by id or username; undefined for an unknown one and for the application's bot. */
  findUser(idOrName: string): UserRecord | undefined;
}

/** One dashboard action: `POST /dashboard/api/<path>` with a JSON body. */
export interface DashboardAction {
  /** Path segments after `/dashboard/api/`; `:name` matches one segment. */
  pattern: string[];
  /** Performs the action; gives (or resolves with) the 2xx status and the JSON answer. */
  run(
    target: ActionTarget,
    params: Record<string, string>,
    body: unknown,
  ): ActionResult | Promise<ActionResult>;
}

/** What an action answers. */
export interface ActionResult {
  /** 200 or 201. */
  status: number;
  /** The JSON answer. */
  value: unknown;
}

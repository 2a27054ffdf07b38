import type { LogWriter } from '../logging/index.js';
import type { RestRequest } from '../rest/RestClient.js';
import type { UserStore } from '../social/UserStore.js';
import type { Clock } from '../util/Clock.js';
import type { ClientEvents } from './ClientEvents.js';

/**
 * What a feature of the client (relationships, messages, invites, …) may use: the signed-in API, the shared
 * user store, the client's events. Features get this instead of the client, so each stays a small module
 * that can be read and tested on its own.
 */
export interface SessionContext {
  /** A logger for the feature's scope. */
  log: LogWriter;
  clock: Clock;
  /**
   * An HTTP call with the current Bearer token; the body of the reply. Rejects with `ClientNotReadyError`
   * unless the client is Ready, as the platform SDK does for social operations.
   */
  api<T>(request: Omit<RestRequest, 'auth'>): Promise<T>;
  /** Throws `ClientNotReadyError` unless the client is Ready; for checks that must come before local validation. */
  requireReady(): void;
  /** The users the client knows; features add the users they learn of. */
  users: UserStore;
  /** The signed-in user's id while Ready. */
  currentUserId(): string | undefined;
  /** The application id the client was given. */
  applicationId(): string | undefined;
  /** Emits a client event. */
  emit<K extends keyof ClientEvents>(event: K, ...args: ClientEvents[K]): void;
}

/** A feature that keeps state from the gateway session. Every hook is optional. */
export interface SessionFeature {
  /** READY arrived: rebuild state from it. */
  onReady?(data: Record<string, unknown>): void;
  /** Any dispatch after READY. */
  onDispatch?(event: string, data: unknown): void;
  /** The client ended Disconnected: forget session state. */
  onDisconnected?(): void;
}

import type { LogWriter } from '../logging/index.js';
import type { RestRequest } from '../rest/RestClient.js';
import type { Clock } from '@sdkpp/protocol';
import type { EventMap } from '@sdkpp/protocol';

/**
 * What a feature of the client (relationships, messages, invites, …) may use: the signed-in API, the clock,
 * and a sink for the events it owns. Features get this instead of the client, so each stays a small module
 * that can be read and tested on its own, and none of them sees another feature's events.
 *
 * `Events` is the feature's own event map (for example `SocialEvents`); the client's event map is the union
 * of them, so an event a feature emits is one the client's listeners receive.
 */
export interface SessionContext<Events extends EventMap<Events>> {
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
  /** The signed-in user's id while Ready. */
  currentUserId(): string | undefined;
  /** The application id the client was given. */
  applicationId(): string | undefined;
  /** Emits one of the feature's events to the client's listeners. */
  emit<K extends keyof Events>(event: K, ...args: Events[K]): void;
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

/** The event map of a feature that emits no client events: no event can be emitted with it. */
export type NoEvents = Record<string, never>;

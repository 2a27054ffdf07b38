import type { IncomingMessage, ServerResponse } from 'node:http';

import { Logger, type LogWriter } from '../../logging/Logger.js';
import { LoggingSeverity, type LogCallback } from '../../logging/index.js';
import { ReplayGuard } from './ReplayGuard.js';
import { platformPublicKey } from './signature.js';
import { readSignedRequest, type SignedRequestRules } from './signedRequest.js';
import {
  InteractionCallbackType,
  InteractionType,
  type Interaction,
  type InteractionResponse,
  type OtherWebhookEvent,
  type WebhookEvent,
} from './types.js';

/** What both receivers take. */
export interface SignedReceiverOptions {
  /** The application's public key, as the developer dashboard shows it (64 hex digits). */
  readonly publicKey: string;
  /** How far a request's signing time may be from now, either way, in seconds (default 300). */
  readonly toleranceSeconds?: number;
  /** The largest body read, in bytes (default 1 MiB); a larger one is refused with 413. */
  readonly maxBodyBytes?: number;
  /** How long a body may take to arrive, in ms (default 10 000); a sender that stalls gets 408. */
  readonly readTimeoutMs?: number;
  /** The most request signatures remembered against replays (default 50 000); past it, 503. */
  readonly replayCapacity?: number;
  /** Where refusals and handler failures are logged (never with a signature, token or body). */
  readonly logCallback?: LogCallback;
  /** The lowest severity passed to `logCallback` (default Warning). */
  readonly logSeverity?: LoggingSeverity;
  /** The clock, in ms since 1970 (a seam for tests; default Date.now). */
  readonly now?: () => number;
}

/** A node:http request listener, for `http.createServer(handler)` or a route of your own server. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** {@link createInteractionsHandler}'s options. */
export interface InteractionsHandlerOptions extends SignedReceiverOptions {
  /** Answers an interaction (PINGs are answered for you). A throw or rejection answers 500. */
  readonly onInteraction: (interaction: Interaction) => InteractionResponse | Promise<InteractionResponse>;
}

/** {@link createWebhookEventsHandler}'s options. */
export interface WebhookEventsHandlerOptions extends SignedReceiverOptions {
  /** Handles one event of a known type. A throw or rejection answers 500, and the platform retries. */
  readonly onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** Handles an event of another type; without it, such events are acknowledged and logged. */
  readonly onUnknownEvent?: (event: OtherWebhookEvent) => void | Promise<void>;
}

const KNOWN_EVENTS = new Set([
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
]);

function rulesOf(options: SignedReceiverOptions): SignedRequestRules {
  const toleranceMs = (options.toleranceSeconds ?? 300) * 1000;
  return {
    key: platformPublicKey(options.publicKey),
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    toleranceMs,
    readTimeoutMs: options.readTimeoutMs ?? 10_000,
    // A request is acceptable for the tolerance either side of now, so its signature is kept twice that.
    replays: new ReplayGuard(2 * toleranceMs, options.replayCapacity ?? 50_000),
    now: options.now ?? Date.now,
  };
}

function writerOf(options: SignedReceiverOptions, tag: string): LogWriter {
  const severity = options.logSeverity ?? LoggingSeverity.Warning;
  const logger = new Logger({ debug: severity < LoggingSeverity.Warning });
  if (options.logCallback) logger.addCallback(options.logCallback, severity);
  return logger.writer(tag);
}

function reply(response: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    response.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The receiving end of an application's interactions endpoint URL: checks each request's Ed25519 signature,
 * its signing time and that it was not seen before, answers PINGs, and passes every other interaction to
 * `onInteraction`, whose answer goes back as the HTTP response.
 *
 * @example
 * ```ts
 * http.createServer(createInteractionsHandler({
 *   publicKey: process.env.APP_PUBLIC_KEY!,
 *   onInteraction: () => ({ type: InteractionCallbackType.ChannelMessageWithSource, data: { content: 'hi' } }),
 * })).listen(8080);
 * ```
 */
export function createInteractionsHandler(options: InteractionsHandlerOptions): RequestHandler {
  const rules = rulesOf(options);
  const log = writerOf(options, 'backend:interactions');
  return (request, response) => {
    void (async () => {
      const signed = await readSignedRequest(request, rules);
      if (!signed.ok) {
        log.warn(`refused an interaction request: ${signed.reason} (${signed.status})`);
        reply(response, signed.status, { message: signed.reason });
        return;
      }
      const body = signed.body;
      if (!isRecord(body) || typeof body.type !== 'number' || typeof body.id !== 'string') {
        reply(response, 400, { message: 'not an interaction' });
        return;
      }
      if (body.type === InteractionType.Ping) {
        reply(response, 200, { type: InteractionCallbackType.Pong });
        return;
      }
      try {
        reply(response, 200, await options.onInteraction(body as unknown as Interaction));
      } catch (error) {
        log.error(`onInteraction failed: ${error instanceof Error ? error.message : String(error)}`);
        reply(response, 500, { message: 'the application failed to answer' });
      }
    })();
  };
}

/**
 * The receiving end of an application's webhook events URL: checks each request as
 * {@link createInteractionsHandler} does, acknowledges PINGs (type 0) with 204, and passes each event (type 1)
 * to `onEvent`, answering 204 once it resolved (500 if it failed, so that the platform delivers it again).
 */
export function createWebhookEventsHandler(options: WebhookEventsHandlerOptions): RequestHandler {
  const rules = rulesOf(options);
  const log = writerOf(options, 'backend:webhook-events');
  return (request, response) => {
    void (async () => {
      const signed = await readSignedRequest(request, rules);
      if (!signed.ok) {
        log.warn(`refused a webhook event request: ${signed.reason} (${signed.status})`);
        reply(response, signed.status, { message: signed.reason });
        return;
      }
      const body = signed.body;
      if (!isRecord(body) || (body.type !== 0 && body.type !== 1)) {
        reply(response, 400, { message: 'not a webhook event' });
        return;
      }
      if (body.type === 0) {
        reply(response, 204);
        return;
      }
      const event = body.event;
      if (!isRecord(event) || typeof event.type !== 'string' || typeof event.timestamp !== 'string') {
        reply(response, 400, { message: 'the event has no type or timestamp' });
        return;
      }
      try {
        if (KNOWN_EVENTS.has(event.type) && isRecord(event.data)) {
          await options.onEvent(event as unknown as WebhookEvent);
        } else if (options.onUnknownEvent) {
          await options.onUnknownEvent(event as unknown as OtherWebhookEvent);
        } else {
          log.info(`acknowledged a webhook event of type ${event.type.slice(0, 64)}`);
        }
        reply(response, 204);
      } catch (error) {
        log.error(`onEvent failed: ${error instanceof Error ? error.message : String(error)}`);
        reply(response, 500, { message: 'the application failed to handle the event' });
      }
    })();
  };
}

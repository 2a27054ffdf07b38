import type { KeyObject } from 'node:crypto';

import { SIGNATURE_HEADER, signRequest, TIMESTAMP_HEADER } from '@sdkpp/protocol';

import type { Mutable } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';
import type { ApplicationKeyRecord } from '../store/types.js';
import type { WebhookDelivery } from '../types.js';
import { applicationPrivateKey, verifyKeyHex } from '../store/applicationKey.js';
import { postSigned } from './signedPost.js';

/** What {@link WebhookEvents} needs. */
export interface WebhookEventsDeps {
  readonly applicationId: () => string;
  /** The application's key pair (kept in the store, so a restart from a saved state signs alike). */
  readonly key: ApplicationKeyRecord;
  /** The emulator's clock in ms (the event's timestamp; `advanceTime` moves it). */
  readonly now: () => number;
  readonly log: EmulatorLog;
  /** The waits before the second and later attempts (default 1 s, 5 s: three attempts in all). */
  readonly retryDelaysMs?: readonly number[];
  /** How long one attempt may take (default 5 s). */
  readonly timeoutMs?: number;
}

/** How many deliveries the log keeps. */
const KEPT_DELIVERIES = 100;

/**
 * The platform's webhook events (interface document: Webhook events): each event is POSTed to the
 * application's webhook events URL as `{ version: 1, application_id, type: 1, event: { type, timestamp, data } }`,
 * signed with the application's Ed25519 key as interactions are (X-Signature-Ed25519 over
 * X-Signature-Timestamp + body), and sent again after a failure (no answer or a non-2xx one).
 */
export class WebhookEvents {
  readonly #deps: WebhookEventsDeps;
  readonly #key: KeyObject;
  /** The application's public key, 64 hex digits: `verify_key`, the portal's Public Key. */
  readonly publicKeyHex: string;
  #url: string | null = null;
  #nextId = 1;
  readonly #deliveries: WebhookDelivery[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(deps: WebhookEventsDeps, url: string | null) {
    this.#deps = deps;
    this.#key = applicationPrivateKey(deps.key);
    this.publicKeyHex = verifyKeyHex(deps.key);
    this.#url = url;
  }

  /** The webhook events URL, or null when none is configured (events are then not sent). */
  get url(): string | null {
    return this.#url;
  }

  /** Configures the webhook events URL (null: none). */
  set url(url: string | null) {
    this.#url = url;
  }

  /**
   * The signature headers for a request body, signed now with the application's key: what interactions sent
   * over HTTP carry, as webhook events do.
   */
  signedHeaders(body: string): Record<string, string> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return { [SIGNATURE_HEADER]: signRequest(this.#key, timestamp, body), [TIMESTAMP_HEADER]: timestamp };
  }

  /** The latest deliveries, newest last (at most 100). */
  deliveries(): WebhookDelivery[] {
    return this.#deliveries.map((d) => ({ ...d }));
  }

  /** Sends an event of `type` with `data` to the configured URL; nothing when none is configured. */
  emit(type: string, data: unknown): void {
    const url = this.#url;
    if (url === null || this.#closed) return;
    const body = JSON.stringify({
      version: 1,
      application_id: this.#deps.applicationId(),
      type: 1,
      event: { type, timestamp: new Date(this.#deps.now()).toISOString(), data },
    });
    const delivery: Mutable<WebhookDelivery> = {
      id: this.#nextId++,
      eventType: type,
      url,
      attempts: 0,
      state: 'pending',
      status: null,
      error: null,
    };
    this.#deliveries.push(delivery);
    if (this.#deliveries.length > KEPT_DELIVERIES) this.#deliveries.shift();
    void this.#attempt(delivery, body);
  }

  /** Stops retrying; pending deliveries stay pending. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  async #attempt(delivery: Mutable<WebhookDelivery>, body: string): Promise<void> {
    delivery.attempts += 1;
    // Signed at each attempt: a retry carries a fresh timestamp, as a receiver's freshness check wants.
    const answer = await postSigned(
      delivery.url,
      body,
      this.signedHeaders(body),
      this.#deps.timeoutMs ?? 5000,
      'webhook events',
    );
    if ('error' in answer) {
      delivery.status = answer.status ?? null;
      delivery.error = answer.error;
    } else {
      delivery.status = answer.status;
      delivery.error = answer.status >= 200 && answer.status <= 299 ? null : `HTTP ${answer.status}`;
    }
    if (delivery.error === null) {
      delivery.state = 'delivered';
      this.#deps.log.line('webhooks', `${delivery.eventType} delivered (attempt ${delivery.attempts})`);
      return;
    }
    const delays = this.#deps.retryDelaysMs ?? [1000, 5000];
    const wait = delays[delivery.attempts - 1];
    if (wait === undefined || this.#closed) {
      delivery.state = this.#closed ? 'pending' : 'failed';
      this.#deps.log.line('webhooks', `${delivery.eventType} not delivered: ${delivery.error}`);
      return;
    }
    this.#deps.log.line('webhooks', `${delivery.eventType}: ${delivery.error}; again in ${wait} ms`);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(delivery, body);
    }, wait);
    timer.unref();
    this.#timers.add(timer);
  }
}

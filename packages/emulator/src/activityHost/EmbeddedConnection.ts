import { randomUUID } from 'node:crypto';

import type { WebSocket } from 'ws';

import type { ActivityInstance, ActivityInstances } from '../activities/ActivityInstances.js';
import type { EmulatorContext } from '../context.js';
import {
  commandReply,
  dispatchBody,
  errorReply,
  readCommand,
  readyData,
  RpcCloseCode,
  RpcCommandError,
  RpcErrorCode,
  type RpcCommand,
} from '../localClient/protocol.js';
import { priceText } from '../premium/premiumWire.js';
import { SCOPE_DESCRIPTIONS } from '../store/scopes.js';
import type { UserRecord } from '../store/types.js';
import { BLOCKED_LINES_PER_FRAME, type BlockedRequest } from './cspReports.js';
import type { PickedImage } from './embeddedScope.js';
import { runEmbeddedCommand, type ConsoleLine, type EmbeddedScope } from './embeddedCommands.js';
import { hostMessage, HostMessageError, type HostMessage } from './hostProtocol.js';

/** The Embedded App SDK's postMessage opcodes. */
export const EmbeddedOpcode = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, HELLO: 3 } as const;

/** How long the host page's OAuth2 modal waits for the player. */
export const CONSENT_TIMEOUT_MS = 120_000;

/** What a frame's connection asks of the Activity host. */
export interface ConnectionHooks {
  instances: ActivityInstances;
  captureLog(instance: ActivityInstance, line: ConsoleLine): void;
  /** The frame completed its handshake and counts as a participant. */
  joined(connection: EmbeddedConnection): void;
}

/**
 * One Activity frame in a player's host page: the host page relays the frame's postMessage traffic over a
 * WebSocket, and this side plays the desktop client: it opens the frame, checks the handshake (client id,
 * frame id, version), sends READY, answers commands and dispatches events, and asks the player for consent in
 * the page. Protocol violations close only this frame, with a CLOSE and a log line.
 */
export class EmbeddedConnection {
  readonly id: string;
  readonly frameId = randomUUID();
  readonly subscriptions = new Set<string>();
  readonly subscriptionArgs = new Map<string, Record<string, string>>();
  readonly instance: ActivityInstance;
  readonly user: UserRecord;
  readonly #ws: WebSocket;
  readonly #ctx: EmulatorContext;
  readonly #hooks: ConnectionHooks;
  readonly #scope: EmbeddedScope;
  readonly #consents = new Map<string, (answer: { approve: boolean; choice?: string }) => void>();
  readonly #uploads = new Map<string, (image: PickedImage | null) => void>();
  #handshaken = false;
  #closed = false;
  #blockedLines = 0;
  readonly #handshakeTimer: NodeJS.Timeout;

  constructor(
    id: string,
    ws: WebSocket,
    ctx: EmulatorContext,
    pass: { instance: ActivityInstance; user: UserRecord; customId: string | null },
    hooks: ConnectionHooks,
  ) {
    this.id = id;
    this.#ws = ws;
    this.#ctx = ctx;
    this.#hooks = hooks;
    this.instance = pass.instance;
    this.user = pass.user;
    this.#scope = {
      ctx,
      user: pass.user,
      instance: pass.instance,
      source: this.source,
      subscriptions: this.subscriptions,
      subscriptionArgs: this.subscriptionArgs,
      authenticated: null,
      consent: (request) =>
        this.#ask({
          kind: 'authorize',
          scopes: request.scopes.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] ?? scope })),
        }),
      confirmPurchase: (sku) =>
        this.#ask({ kind: 'purchase', sku: { name: sku.name, price: priceText(sku.price) } }),
      share: async (prompt) => {
        const answer = await this.#choose({ kind: 'share', ...prompt });
        if (!answer.approve) return null;
        return answer.choice === 'send' && prompt.channel ? 'send' : 'copy';
      },
      showDialog: (dialog) => this.#toHost({ t: 'dialog', ...dialog }),
      pickImage: () => this.#pickImage(),
      captureLog: (line) => hooks.captureLog(pass.instance, line),
      openLink: (url) => this.#toHost({ t: 'link', url }),
    };
    ws.on('message', (data, isBinary) => {
      this.#onMessage(isBinary ? null : (data as Buffer).toString('utf8'));
    });
    ws.on('error', (error) => {
      ctx.log.line('activity', `frame ${id}: socket error (${error.message})`);
    });
    ws.on('close', () => {
      this.#ended();
    });
    this.#handshakeTimer = setTimeout(() => {
      if (this.#handshaken) return;
      ctx.log.line(
        'activity',
        `frame ${id}: no handshake within ${ctx.options.rpcHandshakeTimeoutMs} ms; closing`,
      );
      this.close(RpcCloseCode.Unsupported, 'Handshake timed out');
    }, ctx.options.rpcHandshakeTimeoutMs);
    this.#handshakeTimer.unref();
    const place = new URLSearchParams({
      frame_id: this.frameId,
      instance_id: pass.instance.id,
      platform: 'desktop',
      location_id: pass.instance.locationId,
      ...(pass.instance.guildId === null ? {} : { guild_id: pass.instance.guildId }),
      ...(pass.instance.channelId === null ? {} : { channel_id: pass.instance.channelId }),
      // The SDK reads the opened Activity link's id as `sdk.customId`.
      ...(pass.customId === null ? {} : { custom_id: pass.customId }),
    });
    this.#toHost({
      t: 'open',
      src: `/?${place.toString()}`,
      application: ctx.store.state.application.name,
      user: pass.user.globalName ?? pass.user.username,
      instanceId: pass.instance.id,
    });
  }

  /** The presence source of this frame. */
  get source(): string {
    return `activity:${this.id}`;
  }

  /** True once the handshake succeeded and until the frame closes. */
  get ready(): boolean {
    return this.#handshaken && !this.#closed;
  }

  /** Sends an event if the frame subscribed to it; returns whether it was sent. */
  dispatch(evt: string, data: unknown): boolean {
    if (!this.ready || !this.subscriptions.has(evt)) return false;
    this.#frame(EmbeddedOpcode.FRAME, dispatchBody(evt, data));
    return true;
  }

  /**
   * A request of this frame that the Content Security Policy blocked: the host page logs it in the player's
   * console, and the emulator's log says which URL mapping would allow it (up to a bound per frame).
   */
  blocked(request: BlockedRequest): void {
    this.#toHost({ t: 'blocked', url: request.url, directive: request.directive, hint: request.hint });
    this.#blockedLines += 1;
    if (this.#blockedLines > BLOCKED_LINES_PER_FRAME + 1) return;
    this.#ctx.log.line(
      'activity',
      this.#blockedLines > BLOCKED_LINES_PER_FRAME
        ? `frame ${this.id}: more blocked requests; the rest are not logged`
        : `frame ${this.id}: blocked ${request.directive} ${request.url}: ${request.hint}`,
    );
  }

  /** Shows the players of the instance in the host page. */
  showParticipants(names: string[]): void {
    this.#toHost({ t: 'participants', names });
  }

  /** Sends CLOSE to the frame and ends the connection. */
  close(code: number, message: string): void {
    if (this.#closed) return;
    this.#frame(EmbeddedOpcode.CLOSE, { code, message });
    this.#toHost({ t: 'closed', message });
    this.#ws.close(1000, 'closed');
    this.#ended();
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#handshakeTimer);
    for (const answer of this.#consents.values()) answer({ approve: false });
    this.#consents.clear();
    for (const answer of this.#uploads.values()) answer(null);
    this.#uploads.clear();
    this.#ctx.presence.remove(this.user.id, this.source);
    if (this.#handshaken) this.#hooks.instances.disconnect(this.instance, this.user.id);
  }

  #onMessage(text: string | null): void {
    if (this.#closed) return;
    let message: HostMessage;
    try {
      message = hostMessage(text);
    } catch (error) {
      if (error instanceof HostMessageError && error.command && this.#handshaken) {
        // A command too deep to read is the game's mistake, not the page's: it gets an ERROR and the frame stays.
        this.#refuse(error.command, error.message);
        return;
      }
      this.#violation(error instanceof HostMessageError ? error.message : 'unreadable message');
      return;
    }
    if (message.t === 'consent') {
      // The file picker closed without a file.
      const upload = this.#uploads.get(message.id);
      this.#uploads.delete(message.id);
      upload?.(null);
      const answer = this.#consents.get(message.id);
      this.#consents.delete(message.id);
      answer?.({
        approve: message.approve,
        ...(message.choice === undefined ? {} : { choice: message.choice }),
      });
      return;
    }
    const [op, payload] = message.d;
    if (!this.#handshaken) {
      if (op !== EmbeddedOpcode.HANDSHAKE) this.#violation('the first message must be a handshake');
      else this.#handshake(payload);
      return;
    }
    switch (op) {
      case EmbeddedOpcode.HANDSHAKE:
        this.#violation('a second handshake');
        return;
      case EmbeddedOpcode.FRAME:
        void this.#onCommand(payload);
        return;
      case EmbeddedOpcode.CLOSE:
        this.#ctx.log.line('activity', `frame ${this.id}: the Activity closed itself`);
        this.close(RpcCloseCode.Normal, 'The Activity closed');
        return;
      default:
        this.#violation(`unknown opcode ${op}`);
    }
  }

  #handshake(body: unknown): void {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const app = this.#ctx.store.state.application;
    if (fields.client_id !== app.id) {
      this.#ctx.log.line('activity', `frame ${this.id}: handshake with a foreign or missing client id`);
      this.close(RpcCloseCode.InvalidClientId, 'Invalid Client ID');
      return;
    }
    if (fields.v !== 1) {
      this.#ctx.log.line('activity', `frame ${this.id}: handshake with an unsupported version`);
      this.close(RpcCloseCode.InvalidVersion, 'Invalid Version');
      return;
    }
    if (fields.frame_id !== this.frameId) {
      this.#violation('the handshake names another frame');
      return;
    }
    if (this.#hooks.instances.get(this.instance.id) !== this.instance) {
      this.#ctx.log.line('activity', `frame ${this.id}: its instance ended before the handshake`);
      this.close(RpcCloseCode.Normal, 'The Activity instance ended');
      return;
    }
    this.#handshaken = true;
    clearTimeout(this.#handshakeTimer);
    this.#ctx.log.line(
      'activity',
      `frame ${this.id}: ${this.user.username} joined instance ${this.instance.id}` +
        (typeof fields.sdk_version === 'string' ? ` (SDK ${fields.sdk_version.slice(0, 32)})` : ''),
    );
    this.#hooks.instances.connect(this.instance, this.user.id);
    this.#hooks.joined(this);
    const user: Record<string, unknown> = {
      id: this.user.id,
      username: this.user.username,
      discriminator: '0',
      // The SDK's READY schema takes a string avatar or none at all.
      ...(this.user.avatar === null ? {} : { avatar: this.user.avatar }),
    };
    this.#frame(EmbeddedOpcode.FRAME, dispatchBody('READY', readyData(this.#ctx.urls.api, user)));
  }

  async #onCommand(body: unknown): Promise<void> {
    const command = readCommand(body);
    if (typeof command === 'string') {
      this.#violation(command);
      return;
    }
    try {
      this.#frame(
        EmbeddedOpcode.FRAME,
        commandReply(command, await runEmbeddedCommand(this.#scope, command)),
      );
    } catch (error) {
      const { body: reply, code } = errorReply(command, error);
      this.#ctx.log.line('activity', `frame ${this.id}: ${command.cmd} failed (${code})`);
      this.#frame(EmbeddedOpcode.FRAME, reply);
    }
  }

  #refuse(command: RpcCommand, reason: string): void {
    this.#ctx.log.line('activity', `frame ${this.id}: ${command.cmd} refused (${reason})`);
    const { body } = errorReply(command, new RpcCommandError(RpcErrorCode.InvalidPayload, reason));
    this.#frame(EmbeddedOpcode.FRAME, body);
  }

  /** Whether `id` names a file picker this frame has open (the host page's upload carries it). */
  awaitsUpload(id: string): boolean {
    return this.#uploads.has(id);
  }

  /** The image the host page uploaded for the file picker `id`. */
  uploaded(id: string, image: PickedImage): void {
    const answer = this.#uploads.get(id);
    this.#uploads.delete(id);
    answer?.(image);
  }

  /** Opens the host page's file picker (one at a time); resolves with the image, or null when it closed. */
  #pickImage(): Promise<PickedImage | null> {
    if (this.#uploads.size > 0 || this.#consents.size > 0 || this.#closed) return Promise.resolve(null);
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#uploads.delete(id);
        this.#ctx.log.line('activity', `frame ${this.id}: the file picker timed out`);
        resolve(null);
      }, CONSENT_TIMEOUT_MS);
      timer.unref();
      this.#uploads.set(id, (image) => {
        clearTimeout(timer);
        resolve(image);
      });
      this.#toHost({ t: 'upload', id });
    });
  }

  async #ask(prompt: Record<string, unknown>): Promise<boolean> {
    return (await this.#choose(prompt)).approve;
  }

  /** Shows a modal in the host page; resolves with the player's answer (and the button they chose). */
  #choose(prompt: Record<string, unknown>): Promise<{ approve: boolean; choice?: string }> {
    // One modal at a time, as in the client: a second one asked while one is open is declined.
    if (this.#consents.size > 0 || this.#closed) return Promise.resolve({ approve: false });
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#consents.delete(id);
        this.#ctx.log.line('activity', `frame ${this.id}: the ${String(prompt.kind)} modal timed out`);
        resolve({ approve: false });
      }, CONSENT_TIMEOUT_MS);
      timer.unref();
      this.#consents.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.#toHost({ t: 'consent', id, application: this.#ctx.store.state.application.name, ...prompt });
    });
  }

  #violation(reason: string): void {
    this.#ctx.log.line('activity', `frame ${this.id}: protocol violation (${reason}); closing`);
    this.close(RpcCloseCode.Unsupported, reason);
  }

  #frame(op: number, payload: unknown): void {
    this.#toHost({ t: 'frame', d: [op, payload] });
  }

  #toHost(message: Record<string, unknown>): void {
    if (this.#ws.readyState !== this.#ws.OPEN) return;
    this.#ws.send(JSON.stringify(message));
    // A host page that stops reading must not make the emulator queue without end.
    const queued = this.#ws.bufferedAmount;
    const limit = this.#ctx.options.maxOutboundBufferBytes;
    if (queued > limit) {
      this.#ctx.log.line(
        'activity',
        `frame ${this.id}: slow consumer: ${queued} bytes queued (limit ${limit}); closing`,
      );
      this.#ws.terminate();
      this.#ended();
    }
  }
}

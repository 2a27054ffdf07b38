import type { LogWriter } from '../../logging/index.js';
import type { DaveSessionFactory, DaveSessionLike } from '../../media/index.js';
import { VoiceOpcode } from '@sdkpp/protocol';
import type { SsrcRouter } from './SsrcRouter.js';
import type { VoiceGatewayClient } from '../gateway/VoiceGatewayClient.js';

/** What the DAVE link needs from its voice connection. */
export interface DaveLinkDeps {
  /** Creates the DAVE session; without one the call is never end-to-end encrypted. */
  factory: DaveSessionFactory | undefined;
  selfUserId: string;
  /** The call's voice channel (the lobby). */
  channelId: string;
  log: LogWriter;
  gateway: Pick<VoiceGatewayClient, 'sendJson' | 'sendBinary'>;
  /** Where the session's media keys go. */
  router: SsrcRouter;
  /** The privacy code changed: a new DAVE epoch's, or `''` once there is no group. */
  onPrivacyCode: (privacyCode: string) => void;
}

/**
 * The voice connection's side of the DAVE session: creates it when the server asks for E2EE, feeds it the
 * DAVE opcodes and the transport's decrypt failures, and sends what it says out on the voice gateway and
 * its media keys to the {@link SsrcRouter}. One session per voice session: a new Identify closes it.
 */
export class DaveLink {
  readonly #d: DaveLinkDeps;
  #dave: DaveSessionLike | undefined;
  #lastFailures = 0;
  /** The last DAVE transition-ready (op 23) sent whose transition has not executed yet. */
  #unexecutedReady: unknown;

  constructor(deps: DaveLinkDeps) {
    this.#d = deps;
  }

  /** Whether this connection may use DAVE at all (a session factory was given). */
  get available(): boolean {
    return this.#d.factory !== undefined;
  }

  /** The DAVE protocol version in use (0 = transport encryption only). */
  get protocolVersion(): number {
    return this.#dave?.protocolVersion ?? 0;
  }

  /** The current privacy code, or null without a session or before its first epoch. */
  get privacyCode(): string | null {
    return this.#dave?.privacyCode ?? null;
  }

  /** The 45-digit verification code of `userId`, or null without DAVE. */
  async verificationCode(userId: string): Promise<string | null> {
    return this.#dave ? this.#dave.verificationCode(userId) : null;
  }

  /** Creates the session unless one runs, and tells it who is already in the call. */
  start(connected: string[]): void {
    if (this.#dave || !this.#d.factory) return;
    const log = this.#d.log;
    const dave = this.#d.factory({
      selfUserId: this.#d.selfUserId,
      channelId: this.#d.channelId,
      log: log.child('dave'),
    });
    this.#dave = dave;
    dave.on('sendJson', (op, d) => {
      log.verbose(`voice: DAVE op ${op} out`);
      if (op === VoiceOpcode.DaveTransitionReady) this.#unexecutedReady = d;
      this.#d.gateway.sendJson(op, d);
    });
    dave.on('sendBinary', (op, payload) => {
      this.#d.gateway.sendBinary(op, payload);
    });
    dave.on('sendKey', (key) => {
      log.info(`voice: DAVE ${key ? 'sender key in use' : 'passthrough for sending'}`);
      this.#unexecutedReady = undefined;
      this.#d.router.sendKey(key);
    });
    dave.on('receiveKey', (userId, key) => {
      this.#d.router.receiveKey(userId, key);
    });
    dave.on('epoch', (info) => {
      log.info(`voice: DAVE epoch ${info.epoch} (protocol ${info.protocolVersion})`);
    });
    dave.on('privacyCode', (code) => {
      this.#d.onPrivacyCode(code ?? '');
    });
    if (connected.length > 0) dave.onClientsConnect(connected);
  }

  /** Op 4 asked for this DAVE protocol version. */
  async onSessionDescription(daveProtocolVersion: number): Promise<void> {
    await this.#dave?.onSessionDescription(daveProtocolVersion);
  }

  /** The voice socket resumed. */
  onResumed(): void {
    // A transition-ready said just before the socket dropped may never have reached the server, and the
    // transition would then never execute: say it again (the server treats a repeat as the same answer).
    if (this.#unexecutedReady !== undefined) {
      this.#d.log.info('voice: repeating the DAVE transition-ready after the resume');
      this.#d.gateway.sendJson(VoiceOpcode.DaveTransitionReady, this.#unexecutedReady);
    }
  }

  /** A JSON DAVE op (21, 22, 24) from the voice server. */
  onJson(op: number, d: unknown): void {
    const dave = this.#dave;
    if (!dave) {
      this.#d.log.warn(`voice: DAVE op ${op} without a DAVE session; ignored`);
      return;
    }
    dave.onJson(op, d).catch((error: unknown) => {
      this.#d.log.warn(`voice: DAVE op ${op} failed: ${(error as Error).message}`);
    });
  }

  /** A binary op from the voice server (all of them are DAVE's). */
  onBinary(op: number, payload: Uint8Array): void {
    const dave = this.#dave;
    if (!dave) {
      this.#d.log.warn(`voice: binary op ${op} without a DAVE session; ignored`);
      return;
    }
    dave.onBinary(op, payload).catch((error: unknown) => {
      this.#d.log.warn(`voice: DAVE op ${op} failed: ${(error as Error).message}`);
    });
  }

  /** Op 11: these users are in the call. */
  onClientsConnect(userIds: string[]): void {
    this.#dave?.onClientsConnect(userIds);
  }

  /** Op 13: `userId` left the call. */
  onClientDisconnect(userId: string): void {
    this.#dave?.onClientDisconnect(userId);
  }

  /** A new transport counts its decrypt failures from zero. */
  resetFailureCount(): void {
    this.#lastFailures = 0;
  }

  /** The transport's running count of DAVE decrypt failures; the session hears of the new ones. */
  onDecryptFailures(droppedDaveFailed: number): void {
    if (droppedDaveFailed > this.#lastFailures) {
      this.#dave?.reportDecryptFailures(droppedDaveFailed - this.#lastFailures);
      this.#lastFailures = droppedDaveFailed;
    }
  }

  /** Ends the session (a new voice session, or the connection's end). */
  close(): void {
    this.#dave?.close();
    this.#dave = undefined;
  }
}

import { randomBytes, randomInt } from 'node:crypto';

import { DAVESession, type MediaType, type ProposalsOperationType } from '@snazzah/davey';

import { DaveProtocolSession } from '../../../packages/sdkpp/src/media/dave/session/index.js';
import { DaveCoordinator } from '../../../packages/emulator/src/voice/dave/DaveCoordinator.js';
import { createMediaEngine, type MediaEngineKind } from '../../../packages/sdkpp/src/media/index.js';
import type { Clock } from '../../../packages/protocol/src/base/Clock.js';
import type { DaveDecryptor, DaveEncryptor } from '../../../packages/sdkpp/src/media/dave/types.js';

// An in-memory voice gateway for DAVE unit tests: our DaveCoordinator on one side, DAVE members (our
// DaveProtocolSession, or @snazzah/davey driven as discord.js drives it) on the other, every message framed as
// on the wire (server → client: u16 seq ‖ op ‖ payload, or JSON {op, d, seq}; client → server: op ‖ payload,
// or JSON {op, d}) and delivered in order per member.

// davey's enums are `const enum`s, unreadable under isolated modules; their values from its index.d.ts.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- plain number typed as davey's enum
const AUDIO = 0 as MediaType;

export const CHANNEL_ID = '927310423890473011';

export type Frame = { binary: Uint8Array } | { text: string };

/** One call member as the tests see it, whatever its implementation. */
export interface TestMember {
  readonly userId: string;
  readonly kind: 'ours' | 'davey';
  /** A frame from the server. */
  deliver(frame: Frame): Promise<void>;
  /** Seals one Opus frame with the current send key. */
  encrypt(frame: Uint8Array): Uint8Array;
  /** Opens a frame from `userId`, or null when it does not decrypt. */
  decrypt(userId: string, sealed: Uint8Array): Uint8Array | null;
  privacyCode(): string | null;
  verificationCode(userId: string): Promise<string>;
  epoch(): bigint | null;
  /** Lines the member logged (ours only). */
  readonly logs: string[];
  /** Ops the member sent to the server. */
  readonly sent: number[];
  close(): void;
}

/** The router between one coordinator and its members. */
export class DaveTestCall {
  readonly coordinator: DaveCoordinator;
  readonly members = new Map<string, TestMember>();
  readonly serverLog: string[] = [];
  readonly #seq = new Map<string, number>();
  readonly #inbox = new Map<string, Promise<void>>();
  #pending = 0;
  /** When set, a frame from the server may be rewritten (or dropped with null) before delivery. */
  tamper: ((to: string, op: number, frame: Frame) => Frame | null) | undefined;

  /** The media engine our members encrypt and decrypt frames with. */
  readonly engine: MediaEngineKind;

  constructor(options: { clock?: Clock; engine?: MediaEngineKind } = {}) {
    this.engine = options.engine ?? 'js';
    this.coordinator = new DaveCoordinator({
      channelId: CHANNEL_ID,
      log: (line) => this.serverLog.push(line),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    this.coordinator.on('send', (to, op, body) => this.serverSend(to, op, body));
  }

  /** Frames `body` as the voice server does and queues it for each of `to`. */
  serverSend(to: string[], op: number, body: { json: unknown } | { binary: Uint8Array }): void {
    for (const userId of to) {
      const seq = (this.#seq.get(userId) ?? 0) + 1;
      this.#seq.set(userId, seq);
      const frame: Frame =
        'binary' in body
          ? { binary: Buffer.concat([Buffer.of(seq >> 8, seq & 0xff, op), body.binary]) }
          : { text: JSON.stringify({ op, d: body.json, seq }) };
      this.#post(userId, op, frame);
    }
  }

  #post(userId: string, op: number, original: Frame): void {
    const frame = this.tamper ? this.tamper(userId, op, original) : original;
    const member = this.members.get(userId);
    if (!member || frame === null) return;
    this.#pending++;
    const previous = this.#inbox.get(userId) ?? Promise.resolve();
    this.#inbox.set(
      userId,
      previous
        .then(() => member.deliver(frame))
        .catch((error: unknown) => {
          throw new Error(`member ${userId} threw on op ${op}: ${String(error)}`);
        })
        .finally(() => this.#pending--),
    );
  }

  /** Every frame members sent to the server, in order. */
  readonly clientFrames: { userId: string; op: number; payload: Uint8Array }[] = [];

  /** When set, a frame from a member to the server is dropped when this returns true. */
  dropFromClient: ((userId: string, op: number) => boolean) | undefined;

  /** A frame from a member to the server. */
  fromClient(userId: string, frame: Frame): void {
    const c = this.coordinator;
    const op = 'binary' in frame ? frame.binary[0] : (JSON.parse(frame.text) as { op: number }).op;
    if (op !== undefined && this.dropFromClient?.(userId, op)) return;
    if ('binary' in frame) {
      this.clientFrames.push({ userId, op: frame.binary[0] ?? -1, payload: frame.binary.subarray(1) });
    }
    if ('binary' in frame) {
      const payload = frame.binary.subarray(1);
      if (op === 26) c.onKeyPackage(userId, payload);
      else if (op === 28) c.onCommitWelcome(userId, payload);
      return;
    }
    const { d } = JSON.parse(frame.text) as { d: { transition_id: number } };
    if (op === 23) c.onTransitionReady(userId, d.transition_id);
    else if (op === 31) c.onInvalidCommitWelcome(userId, d.transition_id);
  }

  /** Connects a member: op 4 (DAVE v1), op 11 of the others, then the coordinator's op 25. */
  async join(kind: 'ours' | 'davey', userId: string): Promise<TestMember> {
    const others = [...this.members.keys()];
    const member = kind === 'ours' ? new OurMember(this, userId) : new DaveyMember(this, userId);
    // The voice server tells the others first (op 11), then the newcomer's DAVE starts.
    for (const other of others) {
      const m = this.members.get(other);
      if (m instanceof OurMember) m.session.onClientsConnect([userId]);
      else if (m instanceof DaveyMember) m.recognized.add(userId);
    }
    this.members.set(userId, member);
    this.coordinator.memberJoined(userId);
    if (member instanceof OurMember) {
      member.session.onClientsConnect(others);
      await member.session.onSessionDescription(1);
    } else {
      member.recognized = new Set([userId, ...others]);
      member.start();
    }
    return member;
  }

  /** Disconnects a member: op 13 to the others (unless `silently`) and memberLeft. */
  leave(userId: string, silently = false): void {
    const member = this.members.get(userId);
    this.members.delete(userId);
    member?.close();
    for (const m of silently ? [] : this.members.values()) {
      if (m instanceof OurMember) m.session.onClientDisconnect(userId);
      else if (m instanceof DaveyMember) m.recognized.delete(userId);
    }
    this.coordinator.memberLeft(userId);
  }

  /** Waits until no message is in flight anywhere. */
  async settle(): Promise<void> {
    for (let quiet = 0, rounds = 0; quiet < 3; rounds++) {
      if (rounds > 2000) {
        throw new Error(
          `the call did not settle; the server's last lines: ${this.serverLog.slice(-8).join(' | ')}`,
        );
      }
      await this.coordinator.whenIdle();
      await Promise.all([...this.#inbox.values()]);
      for (const m of this.members.values()) if (m instanceof OurMember) await m.session.whenIdle();
      await new Promise((resolve) => setImmediate(resolve));
      quiet = this.#pending === 0 ? quiet + 1 : 0;
    }
  }

  /**
   * Every member encrypts a random Opus frame and every other member decrypts it. Returns the failures as
   * "sender→receiver" strings (empty: everyone hears everyone).
   */
  crossCheck(): string[] {
    const failures: string[] = [];
    for (const sender of this.members.values()) {
      const frame = randomBytes(randomInt(20, 400));
      const sealed = sender.encrypt(frame);
      for (const receiver of this.members.values()) {
        if (receiver === sender) continue;
        const opened = receiver.decrypt(sender.userId, sealed);
        if (!opened || !Buffer.from(opened).equals(frame))
          failures.push(`${sender.userId}→${receiver.userId}`);
      }
    }
    return failures;
  }

  close(): void {
    for (const m of this.members.values()) m.close();
    this.coordinator.close();
  }
}

function parseServerFrame(frame: Frame): { op: number; json?: unknown; payload?: Uint8Array } {
  if ('binary' in frame) return { op: frame.binary[2] ?? -1, payload: frame.binary.subarray(3) };
  const { op, d } = JSON.parse(frame.text) as { op: number; d: unknown };
  return { op, json: d };
}

/** Our session with the media engine's DAVE encryptor and one decryptor per sender. */
export class OurMember implements TestMember {
  readonly kind = 'ours';
  readonly session: DaveProtocolSession;
  readonly logs: string[] = [];
  readonly sent: number[] = [];
  readonly #engine;
  readonly #encryptor: DaveEncryptor;
  readonly #decryptors = new Map<string, DaveDecryptor>();
  sendKeys = 0;

  constructor(
    readonly call: DaveTestCall,
    readonly userId: string,
  ) {
    this.#engine = createMediaEngine({ prefer: call.engine });
    this.#encryptor = this.#engine.createDaveEncryptor();
    this.session = new DaveProtocolSession({
      selfUserId: userId,
      channelId: CHANNEL_ID,
      logger: {
        verbose: (m) => this.logs.push(m),
        info: (m) => this.logs.push(m),
        warn: (m) => this.logs.push(m),
        error: (m) => this.logs.push(m),
        secret: () => undefined,
        child: () => {
          throw new Error('not used');
        },
      },
    });
    this.session.on('sendBinary', (op, payload) => {
      this.sent.push(op);
      call.fromClient(userId, { binary: Buffer.concat([Buffer.of(op), payload]) });
    });
    this.session.on('sendJson', (op, d) => {
      this.sent.push(op);
      call.fromClient(userId, { text: JSON.stringify({ op, d }) });
    });
    this.session.on('sendKey', (key) => {
      this.sendKeys++;
      if (key) this.#encryptor.setKeyRatchet(key);
      else this.#encryptor.setPassthroughMode(true);
    });
    this.session.on('receiveKey', (from, key) => {
      let decryptor = this.#decryptors.get(from);
      if (!decryptor) {
        decryptor = this.#engine.createDaveDecryptor();
        this.#decryptors.set(from, decryptor);
      }
      if (key) decryptor.transitionToKeyRatchet(key);
      else decryptor.transitionToPassthroughMode(true);
    });
  }

  async deliver(frame: Frame): Promise<void> {
    const { op, json, payload } = parseServerFrame(frame);
    if (payload) await this.session.onBinary(op, payload);
    else await this.session.onJson(op, json);
  }

  encrypt(frame: Uint8Array): Uint8Array {
    const out = Buffer.alloc(this.#encryptor.maxEncryptedLength(frame.length));
    const result = this.#encryptor.encrypt(frame, out);
    if (!result.ok) throw new Error(`${this.userId} cannot encrypt: ${result.code}`);
    return out.subarray(0, result.length);
  }

  decrypt(userId: string, sealed: Uint8Array): Uint8Array | null {
    const decryptor = this.#decryptors.get(userId);
    if (!decryptor) return null;
    const out = Buffer.alloc(sealed.length);
    const result = decryptor.decrypt(sealed, out);
    return result.ok && !result.passthrough ? out.subarray(0, result.length) : null;
  }

  privacyCode(): string | null {
    return this.session.privacyCode;
  }

  verificationCode(userId: string): Promise<string> {
    return this.session.verificationCode(userId);
  }

  epoch(): bigint | null {
    return this.session.epoch;
  }

  close(): void {
    this.session.close();
  }
}

/** davey, driven as discord.js's DAVESession drives it. */
export class DaveyMember implements TestMember {
  readonly kind = 'davey';
  readonly session: DAVESession;
  readonly logs: string[] = [];
  readonly sent: number[] = [];
  recognized = new Set<string>();
  readonly #pendingTransitions = new Map<number, number>();

  constructor(
    readonly call: DaveTestCall,
    readonly userId: string,
  ) {
    this.session = new DAVESession(1, userId, CHANNEL_ID);
  }

  /** Op 4 arrived: discord.js sends the key package at once. */
  start(): void {
    this.#sendBinary(26, this.session.getSerializedKeyPackage());
  }

  #sendBinary(op: number, payload: Uint8Array): void {
    this.sent.push(op);
    this.call.fromClient(this.userId, { binary: Buffer.concat([Buffer.of(op), payload]) });
  }

  #sendJson(op: number, d: unknown): void {
    this.sent.push(op);
    this.call.fromClient(this.userId, { text: JSON.stringify({ op, d }) });
  }

  #recover(tid: number, error: unknown): void {
    this.logs.push(`davey refused transition ${tid}: ${String(error)}`);
    this.#sendJson(31, { transition_id: tid });
    this.session.reinit(1, this.userId, CHANNEL_ID);
    this.#sendBinary(26, this.session.getSerializedKeyPackage());
  }

  #transitionReady(tid: number): void {
    if (tid === 0) return;
    this.#pendingTransitions.set(tid, 1);
    this.#sendJson(23, { transition_id: tid });
  }

  deliver(frame: Frame): Promise<void> {
    const { op, json, payload } = parseServerFrame(frame);
    const d = json as { transition_id: number; protocol_version: number; epoch: number } | undefined;
    const p = payload ? Buffer.from(payload) : Buffer.alloc(0);
    switch (op) {
      case 25:
        this.session.setExternalSender(p);
        break;
      case 27: {
        try {
          // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- 0 append, 1 revoke
          const opType = p[0] as ProposalsOperationType;
          const { commit, welcome } = this.session.processProposals(opType, p.subarray(1), [
            ...this.recognized,
          ]);
          if (commit) this.#sendBinary(28, welcome ? Buffer.concat([commit, welcome]) : commit);
        } catch (error) {
          this.logs.push(`davey refused proposals: ${String(error)}`);
        }
        break;
      }
      case 29: {
        const tid = p.readUInt16BE(0);
        try {
          this.session.processCommit(p.subarray(2));
          this.#transitionReady(tid);
        } catch (error) {
          this.#recover(tid, error);
        }
        break;
      }
      case 30: {
        const tid = p.readUInt16BE(0);
        try {
          this.session.processWelcome(p.subarray(2));
          this.#transitionReady(tid);
        } catch (error) {
          this.#recover(tid, error);
        }
        break;
      }
      case 21:
        if (d && d.transition_id !== 0) this.#transitionReady(d.transition_id);
        break;
      case 22:
        if (d) this.#pendingTransitions.delete(d.transition_id);
        break;
      case 24:
        if (d?.epoch === 1) {
          this.session.reinit(d.protocol_version, this.userId, CHANNEL_ID);
          this.#sendBinary(26, this.session.getSerializedKeyPackage());
        }
        break;
      default:
        break;
    }
    return Promise.resolve();
  }

  encrypt(frame: Uint8Array): Uint8Array {
    return this.session.encryptOpus(Buffer.from(frame));
  }

  decrypt(userId: string, sealed: Uint8Array): Uint8Array | null {
    try {
      return this.session.decrypt(userId, AUDIO, Buffer.from(sealed));
    } catch {
      return null;
    }
  }

  privacyCode(): string | null {
    return this.session.ready ? this.session.voicePrivacyCode : null;
  }

  verificationCode(userId: string): Promise<string> {
    return this.session.getVerificationCode(userId);
  }

  epoch(): bigint | null {
    return this.session.ready ? this.session.epoch : null;
  }

  close(): void {
    this.session.reset();
  }
}

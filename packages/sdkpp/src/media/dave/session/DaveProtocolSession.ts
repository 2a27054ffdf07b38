import type { AuthenticationService, CiphersuiteImpl, ClientState, MlsContext } from 'ts-mls';

import type { Logger, LogWriter } from '../../../logging/index.js';
import { LoggingSeverity } from '../../../logging/index.js';
import type { Clock } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import { privacyCode as makePrivacyCode, verificationCode as makeVerificationCode } from './codes.js';
import { exportSenderKey, generateDaveKeyPackage, groupMembers, type OwnKeyPackage } from './group.js';
import { parseExternalSender, parseProposals, readU16 } from './payloads.js';
import { daveLog, InputQueue, type DaveLog } from './inputQueue.js';
import { PendingTransitions } from './transitions.js';
import { nativeP256 } from './nativeP256.js';
import { daveCipherSuite, loadTsMls, type TsMls } from '@sdkpp/protocol/dave';
import {
  checkCommit,
  checkProposal,
  checkRoster,
  checkWelcomedGroup,
  describeError as describe,
  isDaveCredential,
  Refusal,
  type ExternalSenderInfo,
} from './validation.js';
import { bytesEqual, concatBytes, DaveOp, snowflakeBE64 } from '@sdkpp/protocol/dave';

/** discord.js's default: consecutive decrypt failures before the session recovers. */
const DEFAULT_DECRYPTION_FAILURE_TOLERANCE = 36;
/** MLSMessage header of a Welcome (mls10, mls_welcome): DAVE sends Welcomes bare. */
const WELCOME_HEADER = Uint8Array.of(0, 1, 0, 3);

/** What a new epoch looks like to the application (the privacy code changes with it). */
export interface DaveEpochInfo {
  /** The MLS epoch. */
  epoch: bigint;
  /** The 30-digit voice privacy code, equal at every member of the epoch. */
  privacyCode: string;
  /** The DAVE protocol version in force. */
  protocolVersion: number;
}

/** Events of a {@link DaveProtocolSession}. */
export type DaveProtocolSessionEvents = {
  /** Send a JSON message `{op, d}` on the voice gateway (ops 23, 31). */
  sendJson: [op: number, d: unknown];
  /** Send a binary message `op ‖ payload` on the voice gateway (ops 26, 28). */
  sendBinary: [op: number, payload: Uint8Array];
  /**
   * The 16-byte base secret to encrypt our own media with from now on (at a transition's execution), or
   * `null` for passthrough (protocol version 0: media leaves without DAVE).
   */
  sendKey: [key: Uint8Array | null];
  /**
   * The 16-byte base secret of `userId`'s media for the new epoch (at a commit or welcome, before the
   * sender switches), or `null` when that user's media may arrive without DAVE (a downgrade to version 0).
   */
  receiveKey: [userId: string, key: Uint8Array | null];
  /** A new MLS epoch was reached. */
  epoch: [info: DaveEpochInfo];
  /** The privacy code changed: a new epoch's, or `null` once there is no group (alone, or version 0). */
  privacyCode: [code: string | null];
};

/** Options of a {@link DaveProtocolSession}. */
export interface DaveProtocolSessionOptions {
  /** Our user id (snowflake). */
  selfUserId: string;
  /** The call's channel id (the lobby id for lobby calls): the MLS group id. */
  channelId: string;
  /** Time source (reserved for transition timing; the media layer keeps its own retention windows). */
  clock?: Clock;
  /** Where the session logs; no key material is ever written. */
  logger?: Logger | LogWriter;
  /**
   * Consecutive decrypt failures (counted by the transport) after which the session recovers with op 31
   * and a new key package, when no transition is pending.
   * @defaultValue 36
   */
  decryptionFailureTolerance?: number;
}

/**
 * The client side of DAVE (Discord's audio/video end-to-end encryption) for one voice connection: the MLS
 * session and transition state machine of dave-e2ee.md §1.5, on sdkpp's patched ts-mls.
 *
 * The voice connection (C) feeds it:
 * - op 4's `dave_protocol_version` → {@link DaveProtocolSession.onSessionDescription};
 * - op 11 / op 13 → {@link DaveProtocolSession.onClientsConnect} / {@link DaveProtocolSession.onClientDisconnect}
 *   (the recognized users an Add may name);
 * - JSON ops 21, 22, 24 → {@link DaveProtocolSession.onJson}; binary ops 25, 27, 29, 30 (the payload after
 *   the u16 sequence number and the opcode) → {@link DaveProtocolSession.onBinary}.
 *
 * and acts on its events: `sendJson` / `sendBinary` go to the voice gateway (ops 23, 31 / 26, 28);
 * `receiveKey(userId, key)` arrives at each commit or welcome, before that user switches, and keys the
 * user's decryptor (keep it until op 5 maps the user to an SSRC); `sendKey(key)` arrives when a transition
 * executes and keys our encryptor (`null`: passthrough). Keys are 16-byte base secrets for the media
 * layer's DAVE encryptor/decryptor.
 *
 * Inputs are processed strictly in call order (the returned promises may be ignored). Nothing thrown by
 * ts-mls escapes: a bad proposal is ignored, a commit or welcome that cannot be used leads to op 31 and a
 * fresh key package (the reference recovery), and each refusal is logged.
 */
export class DaveProtocolSession extends TypedEmitter<DaveProtocolSessionEvents> {
  readonly #selfUserId: string;
  readonly #groupId: Uint8Array;
  readonly #log: DaveLog;
  readonly #tolerance: number;
  readonly #inputs: InputQueue;
  #closed = false;

  #mls: TsMls | undefined;
  #suite: CiphersuiteImpl | undefined;
  #protocolVersion = 0;
  #externalSender: ExternalSenderInfo | undefined;
  readonly #recognized = new Set<string>();
  #keyPackage: OwnKeyPackage | undefined;
  /** Our own epoch-0 group, waiting for a Welcome (or becoming the group when we are first). */
  #pending: ClientState | undefined;
  /** The group we are a member of. */
  #state: ClientState | undefined;
  /** Our last commit (op 28) and the state it leads to, adopted when op 29 echoes it. */
  #cached: { commit: Uint8Array; newState: ClientState } | undefined;
  readonly #transitions = new PendingTransitions();
  #privacyCode: string | null = null;

  constructor(options: DaveProtocolSessionOptions) {
    super();
    this.#selfUserId = options.selfUserId;
    this.#groupId = snowflakeBE64(options.channelId);
    this.#tolerance = options.decryptionFailureTolerance ?? DEFAULT_DECRYPTION_FAILURE_TOLERANCE;
    this.#recognized.add(options.selfUserId);
    this.#log = daveLog(options.logger);
    this.#inputs = new InputQueue({
      log: this.#log,
      closed: () => this.#closed,
      recover: () => this.#recover(this.#transitions.current),
    });
  }

  /** The DAVE protocol version in force (0: transport encryption only). */
  get protocolVersion(): number {
    return this.#protocolVersion;
  }

  /** The MLS epoch of the group we are in, or `null` before we joined one. */
  get epoch(): bigint | null {
    return this.#state?.groupContext.epoch ?? null;
  }

  /** The 30-digit voice privacy code of the current epoch, or `null` outside a group. */
  get privacyCode(): string | null {
    return this.#privacyCode;
  }

  /** The RFC 9420 epoch authenticator of the current epoch (32 bytes; the privacy code's source), or `null`. */
  get epochAuthenticator(): Uint8Array | null {
    return this.#state ? this.#state.keySchedule.epochAuthenticator.slice() : null;
  }

  /** The user ids of the group's members, ourselves included (empty outside a group). */
  get memberIds(): string[] {
    return groupMembers(this.#state).map((m) => m.userId);
  }

  /** Resolves when every input given so far has been handled. */
  whenIdle(): Promise<void> {
    return this.#inputs.idle;
  }

  /** Op 4 (Session Description) arrived with `dave_protocol_version`. */
  onSessionDescription(daveProtocolVersion: number): Promise<void> {
    return this.#inputs.enqueue('session description', async () => {
      if (daveProtocolVersion > 0) {
        await this.#init(daveProtocolVersion);
      } else {
        this.#prepareTransition(0, 0);
      }
    });
  }

  /** Op 11: users connected to the call (they may be added to the group). */
  onClientsConnect(userIds: string[]): void {
    for (const id of userIds) this.#recognized.add(id);
  }

  /** Op 13: a user left the call. */
  onClientDisconnect(userId: string): void {
    if (userId !== this.#selfUserId) this.#recognized.delete(userId);
  }

  /** JSON DAVE ops 21 (prepare transition), 22 (execute transition) and 24 (prepare epoch). */
  onJson(op: number, d: unknown): Promise<void> {
    return this.#inputs.enqueue(`op ${op}`, async () => {
      const data = (typeof d === 'object' && d !== null ? d : {}) as Record<string, unknown>;
      const int = (key: string): number | undefined => {
        const value = data[key];
        return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
      };
      switch (op) {
        case DaveOp.PrepareTransition: {
          const tid = int('transition_id');
          const version = int('protocol_version');
          if (tid === undefined || version === undefined) throw new Refusal('malformed op 21', 'ignore');
          this.#prepareTransition(tid, version);
          return;
        }
        case DaveOp.ExecuteTransition: {
          const tid = int('transition_id');
          if (tid === undefined) throw new Refusal('malformed op 22', 'ignore');
          this.#executeTransition(tid);
          return;
        }
        case DaveOp.PrepareEpoch: {
          const epoch = int('epoch');
          const version = int('protocol_version');
          if (epoch === undefined || version === undefined) throw new Refusal('malformed op 24', 'ignore');
          if (epoch === 1) await this.#init(version);
          else this.#protocolVersion = version;
          return;
        }
        default:
          throw new Refusal(`op ${op} is not a JSON DAVE op`, 'ignore');
      }
    });
  }

  /** Binary DAVE ops 25, 27, 29 and 30: `payload` is what follows the sequence number and opcode. */
  onBinary(op: number, payload: Uint8Array): Promise<void> {
    const unexpected = op === DaveOp.AnnounceCommit || op === DaveOp.Welcome ? 'recover' : 'ignore';
    return this.#inputs.enqueue(
      `op ${op}`,
      async () => {
        switch (op) {
          case DaveOp.ExternalSender:
            await this.#onExternalSender(payload);
            return;
          case DaveOp.Proposals:
            await this.#onProposals(payload);
            return;
          case DaveOp.AnnounceCommit:
            await this.#onCommit(payload);
            return;
          case DaveOp.Welcome:
            await this.#onWelcome(payload);
            return;
          default:
            throw new Refusal(`op ${op} is not a binary DAVE op`, 'ignore');
        }
      },
      unexpected,
    );
  }

  /**
   * The 45-digit verification code between us and `userId` (equal on both sides), from both members'
   * signature keys in the current group. Rejects when either is not in the group.
   */
  async verificationCode(userId: string): Promise<string> {
    await this.#inputs.idle;
    const members = groupMembers(this.#state);
    const self = members.find((m) => m.userId === this.#selfUserId);
    const other = members.find((m) => m.userId === userId);
    if (!self || !other) throw new Error(`dave: ${userId} and we are not in one group`);
    return makeVerificationCode(self, other);
  }

  /**
   * The transport counted `count` consecutive DAVE decrypt failures. At the tolerance, with no transition
   * pending, the session recovers as discord.js does: op 31 for the last transition and a new key package.
   */
  reportDecryptFailures(count: number): void {
    if (count < this.#tolerance) return;
    void this.#inputs.enqueue('decrypt failures', () => {
      if (this.#protocolVersion === 0 || this.#transitions.size > 0) return Promise.resolve();
      this.#transitions.current = this.#transitions.lastExecuted;
      throw new Refusal(`${count} consecutive decrypt failures`, 'recover');
    });
  }

  /** Drops all state; later inputs are ignored. */
  close(): void {
    this.#closed = true;
    this.#reset();
    this.#transitions.clear();
  }

  // --- internals ---------------------------------------------------------------------------------------

  /**
   * DAVE's credentials: members carry a basic credential whose identity is an 8-byte user id; the one
   * external sender is the voice server's from op 25.
   */
  readonly #authService: AuthenticationService = {
    validateCredential: (credential, signaturePublicKey) =>
      Promise.resolve(isDaveCredential(credential, signaturePublicKey, this.#externalSender)),
  };

  async #tsMls(): Promise<{ mls: TsMls; context: MlsContext }> {
    this.#mls ??= await loadTsMls();
    this.#suite ??= await daveCipherSuite(nativeP256());
    return { mls: this.#mls, context: { cipherSuite: this.#suite, authService: this.#authService } };
  }

  #reset(): void {
    this.#keyPackage = undefined;
    this.#pending = undefined;
    this.#state = undefined;
    this.#cached = undefined;
    this.#setPrivacyCode(null);
  }

  #setPrivacyCode(code: string | null): void {
    if (code === this.#privacyCode) return;
    this.#privacyCode = code;
    this.emit('privacyCode', code);
  }

  /** (Re)initialises MLS for `version`: fresh keys, a key package (op 26), and the pending group. */
  async #init(version: number): Promise<void> {
    this.#reset();
    // Transitions announced for the group we leave are void: executing one later must not switch our
    // send key to a group nobody else is in.
    this.#transitions.clear();
    this.#protocolVersion = version;
    if (version === 0) return;
    const { mls, context } = await this.#tsMls();
    this.#keyPackage = await generateDaveKeyPackage(mls, context.cipherSuite, this.#selfUserId);
    this.emit(
      'sendBinary',
      DaveOp.KeyPackage,
      mls.encode(mls.keyPackageEncoder, this.#keyPackage.publicPackage),
    );
    await this.#createPendingGroup();
  }

  async #createPendingGroup(): Promise<void> {
    const sender = this.#externalSender;
    const keyPackage = this.#keyPackage;
    if (!sender || !keyPackage || this.#pending || this.#state) return;
    const { mls, context } = await this.#tsMls();
    this.#pending = await mls.createGroup({
      context,
      groupId: this.#groupId,
      keyPackage: keyPackage.publicPackage,
      privateKeyPackage: keyPackage.privatePackage,
      extensions: [{ extensionType: mls.defaultExtensionTypes.external_senders, extensionData: sender }],
    });
  }

  async #onExternalSender(payload: Uint8Array): Promise<void> {
    const sender = parseExternalSender(payload);
    if (this.#state) throw new Refusal('external sender after the group was established', 'ignore');
    this.#externalSender = sender;
    this.#pending = undefined; // a group made for another sender is of no use
    await this.#createPendingGroup();
  }

  /** Op 27: validate and queue external proposals (append) or drop them (revoke), then commit the queue. */
  async #onProposals(payload: Uint8Array): Promise<void> {
    const base = this.#state ?? this.#pending;
    if (!base) throw new Refusal('proposals without a group', 'ignore');
    const { mls, context } = await this.#tsMls();
    const proposals = parseProposals(payload);
    let working = base;
    if (proposals.operation === 'append') {
      const messages = proposals.messages;
      for (let at = 0; at < messages.length;) {
        const decoded = mls.mlsMessageDecoder(messages, at);
        if (!decoded) throw new Refusal('undecodable proposal', 'ignore');
        const [message, length] = decoded;
        at += length;
        checkProposal(mls, working, message, this.#recognized);
        if (message.wireformat !== mls.wireformats.mls_public_message) continue; // checked above
        try {
          const result = await mls.processMessage({ context, state: working, message });
          working = result.newState;
        } catch (error) {
          throw new Refusal(`proposal not accepted by MLS: ${describe(error)}`, 'ignore');
        }
      }
    } else {
      const revoked = proposals.refs;
      const kept = Object.entries(working.unappliedProposals).filter(([key]) => !revoked.has(key));
      working = { ...working, unappliedProposals: Object.fromEntries(kept) };
    }
    if (this.#state) this.#state = working;
    else this.#pending = working;

    this.#cached = undefined;
    if (Object.keys(working.unappliedProposals).length === 0) return; // nothing left to commit
    const { commit, welcome, newState } = await mls.createCommit({
      context,
      state: working,
      wireAsPublicMessage: true,
      ratchetTreeExtension: true,
    });
    const commitBytes = mls.encode(mls.mlsMessageEncoder, commit);
    const welcomeBytes = welcome ? mls.encode(mls.mlsMessageEncoder, welcome).subarray(4) : new Uint8Array(0);
    this.#cached = { commit: commitBytes, newState };
    this.emit('sendBinary', DaveOp.CommitWelcome, concatBytes(commitBytes, welcomeBytes));
  }

  /** Op 29: a commit was chosen for the epoch (ours: adopt it; another member's: process it). */
  async #onCommit(payload: Uint8Array): Promise<void> {
    if (payload.length < 3) throw new Refusal('malformed op 29', 'ignore');
    const tid = readU16(payload);
    this.#transitions.current = tid;
    const commitBytes = payload.subarray(2);
    const base = this.#state ?? this.#pending;
    if (!base) throw new Refusal('commit without a group', 'ignore');
    let newState: ClientState;
    if (this.#cached && bytesEqual(this.#cached.commit, commitBytes)) {
      newState = this.#cached.newState;
    } else {
      if (!this.#state) throw new Refusal('another member’s commit while we wait for a Welcome', 'ignore');
      const { mls, context } = await this.#tsMls();
      const decoded = mls.mlsMessageDecoder(commitBytes, 0);
      if (!decoded || decoded[1] !== commitBytes.length) throw new Refusal('undecodable commit', 'recover');
      const [message] = decoded;
      checkCommit(mls, message, this.#groupId, base.groupContext.epoch);
      try {
        newState = (await mls.processMessage({ context, state: base, message })).newState;
      } catch (error) {
        throw new Refusal(`commit not accepted by MLS: ${describe(error)}`, 'recover');
      }
    }
    if (newState.groupActiveState.kind === 'removedFromGroup') {
      this.#log(LoggingSeverity.Info, 'removed from the group; starting over');
      await this.#init(this.#protocolVersion);
      return;
    }
    checkRoster(newState);
    this.#state = newState;
    this.#pending = undefined;
    this.#cached = undefined;
    this.#enterEpoch(tid);
  }

  /** Op 30: we were added; join from the bare Welcome. */
  async #onWelcome(payload: Uint8Array): Promise<void> {
    if (payload.length < 3) throw new Refusal('malformed op 30', 'ignore');
    const tid = readU16(payload);
    this.#transitions.current = tid;
    if (this.#state) throw new Refusal('Welcome while already in the group', 'ignore');
    const keyPackage = this.#keyPackage;
    const sender = this.#externalSender;
    if (!keyPackage || !sender)
      throw new Refusal('Welcome before our key package or external sender', 'ignore');
    const { mls, context } = await this.#tsMls();
    const bytes = concatBytes(WELCOME_HEADER, payload.subarray(2));
    const decoded = mls.mlsMessageDecoder(bytes, 0);
    if (decoded?.[0].wireformat !== mls.wireformats.mls_welcome || decoded[1] !== bytes.length) {
      throw new Refusal('undecodable Welcome', 'recover');
    }
    // A Welcome made for an earlier key package of ours (sent before our last recovery, which announced a new
    // one with op 31) is stale, not broken: the voice server re-adds us with the new package. Answering it
    // with op 31 and yet another package would keep both sides chasing each other.
    const ourRef = await mls.makeKeyPackageRef(keyPackage.publicPackage, context.cipherSuite.hash);
    if (!decoded[0].welcome.secrets.some((secret) => bytesEqual(secret.newMember, ourRef))) {
      throw new Refusal('a Welcome for another key package (an earlier one of ours, or not ours)', 'ignore');
    }
    let state: ClientState;
    try {
      state = await mls.joinGroup({
        context,
        welcome: decoded[0].welcome,
        keyPackage: keyPackage.publicPackage,
        privateKeys: keyPackage.privatePackage,
      });
    } catch (error) {
      throw new Refusal(`Welcome not accepted by MLS: ${describe(error)}`, 'recover');
    }
    checkWelcomedGroup(mls, state, this.#groupId, sender);
    checkRoster(state);
    this.#state = state;
    this.#pending = undefined;
    this.#cached = undefined;
    this.#enterEpoch(tid);
  }

  /** A commit or welcome took us to a new epoch: receive keys now, our send key at the transition. */
  #enterEpoch(tid: number): void {
    const state = this.#state;
    if (!state) return;
    for (const { userId } of groupMembers(state)) {
      if (userId !== this.#selfUserId) this.emit('receiveKey', userId, exportSenderKey(state, userId));
    }
    const privacyCode = makePrivacyCode(state.keySchedule.epochAuthenticator);
    this.#setPrivacyCode(privacyCode);
    this.emit('epoch', {
      epoch: state.groupContext.epoch,
      privacyCode,
      protocolVersion: this.#protocolVersion,
    });
    this.#log(
      LoggingSeverity.Info,
      `epoch ${state.groupContext.epoch}, ${groupMembers(state).length} members`,
    );
    if (tid === 0) {
      this.#transitions.prepare(0, this.#protocolVersion);
      this.#executeTransitionNow(0);
    } else {
      this.#transitions.prepare(tid, this.#protocolVersion);
      this.emit('sendJson', DaveOp.TransitionReady, { transition_id: tid });
    }
  }

  #prepareTransition(tid: number, version: number): void {
    this.#transitions.prepare(tid, version);
    if (version === 0) {
      // A downgrade: media from everyone may arrive without DAVE from now on.
      for (const userId of this.#recognized)
        if (userId !== this.#selfUserId) this.emit('receiveKey', userId, null);
    }
    if (tid === 0) this.#executeTransitionNow(0);
    else this.emit('sendJson', DaveOp.TransitionReady, { transition_id: tid });
  }

  #executeTransition(tid: number): void {
    if (!this.#transitions.has(tid)) throw new Refusal(`execute of unknown transition ${tid}`, 'ignore');
    this.#executeTransitionNow(tid);
  }

  #executeTransitionNow(tid: number): void {
    const version = this.#transitions.take(tid);
    if (version === undefined) return;
    if (version === 0) {
      this.#protocolVersion = 0;
      this.#reset();
      this.emit('sendKey', null);
      return;
    }
    this.#protocolVersion = version;
    const state = this.#state ?? this.#pending;
    if (state) this.emit('sendKey', exportSenderKey(state, this.#selfUserId));
  }

  /** The reference recovery: op 31 for the transition, then a fresh start with a new key package. */
  async #recover(tid: number): Promise<void> {
    this.emit('sendJson', DaveOp.InvalidCommitWelcome, { transition_id: tid });
    await this.#init(this.#protocolVersion || 1);
  }
}

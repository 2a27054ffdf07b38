import { loadTsMls, type TsMls } from '@sdkpp/protocol/dave';
import { concatBytes, DAVE_PROTOCOL_VERSION, DaveOp, snowflakeBE64, u16 } from '@sdkpp/protocol/dave';
import { systemClock, type Clock } from '@sdkpp/protocol';
import { TypedEmitter } from '@sdkpp/protocol';
import { checkCommit, checkKeyPackage } from './commitCheck.js';
import { ExternalSender } from './externalSender.js';
import {
  appendProposalsPayload,
  ProposalLog,
  revokeProposalsPayload,
  type SentProposal,
} from './proposals.js';
import { Roster, type Leaf } from './roster.js';
import { TransitionTracker } from './transitions.js';

/** What the coordinator asks the voice gateway to send: JSON (`{op, d}`) or a binary DAVE message. */
export type DaveMessageBody = { json: unknown } | { binary: Uint8Array };

/** Events of a {@link DaveCoordinator}. */
export type DaveCoordinatorEvents = {
  /** Send `body` as opcode `op` to each user in `to` (binary: the gateway frames u16 seq ‖ op ‖ payload). */
  send: [to: string[], op: number, body: DaveMessageBody];
};

/** Options of a {@link DaveCoordinator}. */
export interface DaveCoordinatorOptions {
  /** The call's channel (the lobby id): the MLS group id is its 8-byte big-endian form. */
  channelId: string;
  /** Time source for the transition timeout. */
  clock?: Clock;
  /** Log sink; lines never hold key material. */
  log?: (line: string) => void;
  /**
   * How long to wait for every member's op 23 before executing a transition anyway (a member that never
   * answers must not stall the call).
   * @defaultValue 10000
   */
  transitionTimeoutMs?: number;
}

/**
 * The voice server's DAVE role for one call (dave-e2ee.md §1.5, §4.1): it owns the call's MLS external
 * sender, proposes Adds for members' key packages and Removes for leavers, picks the first valid commit of
 * each epoch and announces it (op 29 to the group, op 30 Welcome to joiners), and runs the transitions
 * (op 23 from everyone → op 22). It never holds MLS secrets: it sees only public messages.
 *
 * Driving it (the voice gateway, B):
 * - {@link DaveCoordinator.memberJoined} once the member got op 4 with `dave_protocol_version` 1;
 *   {@link DaveCoordinator.memberLeft} when it disconnects;
 * - ops 26, 28, 23 and 31 from members go to {@link DaveCoordinator.onKeyPackage},
 *   {@link DaveCoordinator.onCommitWelcome}, {@link DaveCoordinator.onTransitionReady} and
 *   {@link DaveCoordinator.onInvalidCommitWelcome};
 * - every `send` event is framed and sent to the listed users, in event order (ops 21, 22, 24 as JSON
 *   `{op, d}`; ops 25, 27, 29, 30 binary).
 *
 * Inputs are processed one at a time in arrival order (MLS decoding is asynchronous); bad input is
 * logged and ignored, never thrown.
 */
export class DaveCoordinator extends TypedEmitter<DaveCoordinatorEvents> {
  readonly #channelId: string;
  readonly #groupId: Uint8Array;
  readonly #log: (line: string) => void;
  readonly #transitions: TransitionTracker;
  readonly #sender = new ExternalSender();
  readonly #proposals: ProposalLog;
  readonly #mls: Promise<TsMls>;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  /** DAVE members connected to the call. */
  readonly #connected = new Set<string>();
  /** The group's leaves (null: blank), the gateway's view after the last accepted commit. */
  readonly #roster = new Roster();
  #epoch = 0n;
  /** Key packages waiting for an Add, by user. */
  readonly #keyPackages = new Map<string, { bytes: Uint8Array; signatureKey: Uint8Array }>();
  /** Members that reported an invalid commit/welcome (op 31): removed, then re-added with a new key package. */
  readonly #toReAdd = new Set<string>();
  #protocolVersion = DAVE_PROTOCOL_VERSION;

  constructor(options: DaveCoordinatorOptions) {
    super();
    this.#channelId = options.channelId;
    this.#groupId = snowflakeBE64(options.channelId);
    this.#proposals = new ProposalLog(this.#sender, this.#groupId);
    this.#log = options.log ?? (() => undefined);
    this.#transitions = new TransitionTracker({
      clock: options.clock ?? systemClock,
      timeoutMs: options.transitionTimeoutMs ?? 10_000,
      onTimeout: (transition) => {
        this.#enqueue('transition timeout', () => {
          if (this.#transitions.current !== transition) return;
          this.#log(`dave: transition ${transition.id} timed out; executing it anyway`);
          this.#transitions.execute(transition);
        });
      },
      onExecute: (transition) => {
        const to = [...transition.participants].filter((id) => this.#connected.has(id));
        this.#send(to, DaveOp.ExecuteTransition, { json: { transition_id: transition.id } });
      },
    });
    this.#mls = loadTsMls();
    this.#mls.catch((error: unknown) => {
      this.#log(`dave: ts-mls unavailable: ${errorText(error)}`);
    });
  }

  /** The op 25 payload for members (RFC 9420 ExternalSender). */
  get externalSenderPackage(): Uint8Array {
    return this.#sender.package;
  }

  /** The MLS epoch the gateway's proposals currently target (0 until the first commit). */
  get epoch(): bigint {
    return this.#epoch;
  }

  /** The user ids in the group (gateway view, leaf order). */
  get memberIds(): readonly string[] {
    return this.#roster.memberIds;
  }

  /** The call's DAVE protocol version: 1, or 0 after {@link DaveCoordinator.downgradeToV0}. */
  get protocolVersion(): number {
    return this.#protocolVersion;
  }

  /**
   * Runs the rest of the call without DAVE (a member without DAVE joined and the emulator allows it): every
   * member gets op 21 `{protocol_version: 0}` and, once all answered op 23 (or the timeout passed), op 22; MLS
   * state is dropped. Later joiners should get `dave_protocol_version: 0` in op 4 and need not be reported.
   * There is no way back to version 1 within the call.
   */
  downgradeToV0(): void {
    this.#enqueue('downgrade', () => {
      if (this.#protocolVersion === 0) return;
      this.#protocolVersion = 0;
      this.#transitions.cancel();
      this.#roster.reset([]);
      this.#epoch = 0n;
      this.#proposals.clear();
      this.#keyPackages.clear();
      this.#toReAdd.clear();
      const members = [...this.#connected];
      this.#log(`dave: channel ${this.#channelId} downgraded to protocol version 0`);
      if (members.length === 0) return;
      const transitionId = this.#transitions.newId();
      this.#transitions.start(transitionId, new Set(members));
      this.#send(members, DaveOp.PrepareTransition, {
        json: { protocol_version: 0, transition_id: transitionId },
      });
    });
  }

  /** Resolves when every input received so far has been handled (for tests and orderly shutdown). */
  whenIdle(): Promise<void> {
    return this.#queue;
  }

  /** A member connected with DAVE (after op 4 was sent to it): it gets op 25. */
  memberJoined(userId: string): void {
    this.#enqueue('member joined', () => {
      if (this.#protocolVersion === 0) return;
      this.#connected.add(userId);
      this.#send([userId], DaveOp.ExternalSender, { binary: this.#sender.package });
    });
  }

  /** A member left the call (or its voice connection closed for good). */
  memberLeft(userId: string): void {
    this.#enqueue('member left', () => {
      if (!this.#connected.delete(userId)) return;
      this.#keyPackages.delete(userId);
      this.#toReAdd.delete(userId);
      this.#transitions.drop(userId);
      if (this.#protocolVersion === 0) return;
      const remaining = this.#activeMembers();
      if (this.#indexOf(userId) >= 0 && remaining.length === 1 && remaining[0] !== undefined) {
        this.#soleMemberReset(remaining[0]);
        return;
      }
      if (remaining.length === 0) {
        this.#resetGroup();
        return;
      }
      this.#reconcile();
    });
  }

  /** Op 26: a member's bare KeyPackage. */
  onKeyPackage(userId: string, payload: Uint8Array): void {
    this.#enqueue('key package', async () => {
      if (this.#protocolVersion === 0) return;
      if (!this.#connected.has(userId)) {
        this.#log(`dave: key package from ${userId}, not a member`);
        return;
      }
      const mls = await this.#mls;
      const keyPackage = mls.decode(mls.keyPackageDecoder, payload);
      const problem = keyPackage ? checkKeyPackage(userId, keyPackage) : 'undecodable';
      if (keyPackage === undefined || problem !== undefined) {
        this.#log(`dave: refused key package of ${userId}: ${problem ?? 'undecodable'}`);
        return;
      }
      const signatureKey = keyPackage.leafNode.signaturePublicKey;
      const leaf = this.#roster.leafOf(userId);
      if (leaf && leaf.signatureKey === undefined) {
        // The sole member after a reset: its new pending group uses this key.
        leaf.signatureKey = signatureKey;
        this.#reconcile();
        return;
      }
      this.#keyPackages.set(userId, { bytes: payload.slice(), signatureKey });
      if (leaf && !this.#toReAdd.has(userId)) {
        // A member only makes a new key package after dropping its group: re-add it as after op 31.
        this.#log(`dave: ${userId} sent a new key package while in the group; removing and re-adding it`);
        this.#transitions.drop(userId);
        if (this.#activeMembers().every((id) => id === userId)) {
          this.#resetGroup();
          return;
        }
        this.#toReAdd.add(userId);
      }
      // No group yet: this member's own pending group (epoch 0) becomes the call's group.
      if (this.#roster.empty) this.#resetGroup();
      else this.#reconcile();
    });
  }

  /** Op 28: a member's commit, followed by a bare Welcome when it adds members. */
  onCommitWelcome(userId: string, payload: Uint8Array): void {
    this.#enqueue('commit', async () => {
      if (this.#protocolVersion === 0) return;
      const mls = await this.#mls;
      const decoded = mls.mlsMessageDecoder(payload, 0);
      if (decoded === undefined) {
        this.#log(`dave: refused commit of ${userId}: undecodable`);
        return;
      }
      const [message, length] = decoded;
      const commitBytes = payload.slice(0, length);
      const welcomeBytes = payload.slice(length);
      const checked = checkCommit(mls, userId, message, {
        groupId: this.#groupId,
        epoch: this.#epoch,
        leaves: this.#roster.leaves,
        open: this.#proposals.open(),
      });
      if (typeof checked === 'string') {
        this.#log(`dave: refused commit of ${userId}: ${checked}`);
        return;
      }
      if (checked.adds.length > 0) {
        const welcome = mls.decode(
          mls.mlsMessageDecoder,
          concatBytes(Uint8Array.of(0, 1, 0, 3), welcomeBytes),
        );
        if (welcome?.wireformat !== mls.wireformats.mls_welcome) {
          this.#log(`dave: refused commit of ${userId}: adds members without a valid Welcome`);
          return;
        }
      }
      this.#accept(commitBytes, welcomeBytes, checked.removes, checked.adds);
    });
  }

  /** Op 23: a member is ready for transition `transitionId`. */
  onTransitionReady(userId: string, transitionId: number): void {
    this.#enqueue('transition ready', () => {
      this.#transitions.ready(userId, transitionId);
    });
  }

  /** Op 31: a member could not process a commit or welcome; it is removed and re-added. */
  onInvalidCommitWelcome(userId: string, transitionId: number): void {
    this.#enqueue('invalid commit/welcome', () => {
      if (this.#protocolVersion === 0) return;
      if (!this.#connected.has(userId)) return;
      this.#log(`dave: ${userId} reported transition ${transitionId} invalid; removing and re-adding it`);
      this.#keyPackages.delete(userId);
      this.#transitions.drop(userId);
      if (this.#indexOf(userId) < 0) {
        this.#reconcile();
        return;
      }
      const others = this.#activeMembers().filter((id) => id !== userId);
      if (others.length === 0) {
        // It was alone: its own new pending group (after its reset) becomes the group again.
        this.#resetGroup();
        return;
      }
      this.#toReAdd.add(userId);
      this.#reconcile();
    });
  }

  /** Stops timers and drops every later input. */
  close(): void {
    this.#closed = true;
    this.#transitions.cancel();
  }

  // --- internals ---------------------------------------------------------------------------------------

  #enqueue(what: string, step: () => void | Promise<void>): void {
    this.#queue = this.#queue.then(async () => {
      if (this.#closed) return;
      try {
        await step();
      } catch (error) {
        this.#log(`dave: ${what} failed: ${errorText(error)}`);
      }
    });
  }

  #send(to: string[], op: number, body: DaveMessageBody): void {
    if (to.length > 0) this.emit('send', to, op, body);
  }

  #indexOf(userId: string): number {
    return this.#roster.indexOf(userId);
  }

  /** Group members still connected and not awaiting removal (the ones proposals go to). */
  #activeMembers(): string[] {
    return this.#roster.leaves
      .filter((l): l is Leaf => l !== null && this.#connected.has(l.userId) && !this.#toReAdd.has(l.userId))
      .map((l) => l.userId);
  }

  /** Proposes whatever the roster needs: Removes for leavers and failed members, Adds for waiting joiners. */
  #reconcile(): void {
    const active = this.#activeMembers();
    if (active.length === 0) return;
    // Revoke the Add of a joiner that left before being committed, or that sent a newer key package.
    const revoked = this.#proposals.revoke(
      (p) => p.kind === 'add' && this.#keyPackages.get(p.userId)?.bytes !== p.keyPackage,
    );
    if (revoked.length > 0) {
      this.#send(active, DaveOp.Proposals, { binary: revokeProposalsPayload(revoked) });
    }
    const fresh: Uint8Array[] = [];
    const pending = (kind: 'add' | 'remove', userId: string): boolean =>
      this.#proposals.pending(kind, userId);
    this.#roster.leaves.forEach((leaf, leafIndex) => {
      if (leaf === null) return;
      const leaving = !this.#connected.has(leaf.userId) || this.#toReAdd.has(leaf.userId);
      if (!leaving || pending('remove', leaf.userId)) return;
      fresh.push(this.#propose({ remove: leafIndex }, { kind: 'remove', userId: leaf.userId, leafIndex }));
    });
    for (const [userId, keyPackage] of this.#keyPackages) {
      if (!this.#connected.has(userId) || this.#indexOf(userId) >= 0 || pending('add', userId)) continue;
      fresh.push(
        this.#propose(
          { add: keyPackage.bytes },
          { kind: 'add', userId, signatureKey: keyPackage.signatureKey, keyPackage: keyPackage.bytes },
        ),
      );
    }
    if (fresh.length > 0) {
      this.#send(active, DaveOp.Proposals, { binary: appendProposalsPayload(fresh) });
    }
  }

  #propose(
    proposal: { add: Uint8Array } | { remove: number },
    record: Omit<SentProposal, 'ref' | 'revoked'>,
  ): Uint8Array {
    return this.#proposals.propose(this.#epoch, proposal, record);
  }

  #accept(commit: Uint8Array, welcome: Uint8Array, removes: SentProposal[], adds: SentProposal[]): void {
    const before = this.#activeMembers();
    this.#roster.apply(removes, adds);
    for (const p of adds) this.#keyPackages.delete(p.userId);
    for (const p of removes) this.#toReAdd.delete(p.userId);
    this.#epoch += 1n;
    this.#proposals.clear();

    const transitionId = this.#transitions.newId();
    const removed = new Set(removes.map((p) => p.userId));
    const existing = before.filter((id) => !removed.has(id));
    const joiners = adds.map((p) => p.userId).filter((id) => this.#connected.has(id));
    this.#log(
      `dave: epoch ${this.#epoch} of channel ${this.#channelId} (transition ${transitionId}): ` +
        `+${adds.length} -${removes.length}, ${this.memberIds.length} members`,
    );
    this.#transitions.start(transitionId, new Set([...existing, ...joiners]));
    this.#send(existing, DaveOp.AnnounceCommit, { binary: concatBytes(u16(transitionId), commit) });
    if (joiners.length > 0) {
      this.#send(joiners, DaveOp.Welcome, { binary: concatBytes(u16(transitionId), welcome) });
    }
    this.#reconcile();
  }

  /** The last member of the group: it recreates the group alone (op 24 epoch 1, then op 21 tid 0). */
  #soleMemberReset(userId: string): void {
    this.#log(`dave: ${userId} is alone in channel ${this.#channelId}; resetting its group`);
    this.#transitions.cancel();
    this.#roster.reset([{ userId, signatureKey: undefined }]);
    this.#epoch = 0n;
    this.#proposals.clear();
    this.#toReAdd.clear();
    this.#send([userId], DaveOp.PrepareEpoch, {
      json: { protocol_version: DAVE_PROTOCOL_VERSION, epoch: 1 },
    });
    this.#send([userId], DaveOp.PrepareTransition, {
      json: { protocol_version: DAVE_PROTOCOL_VERSION, transition_id: 0 },
    });
  }

  /**
   * No group left. A joiner still waiting with a key package holds its own pending epoch-0 group: that one
   * becomes the call's group; otherwise the next key package starts one.
   */
  #resetGroup(): void {
    this.#transitions.cancel();
    this.#roster.reset([]);
    this.#epoch = 0n;
    this.#proposals.clear();
    this.#toReAdd.clear();
    const [next] = [...this.#keyPackages].filter(([userId]) => this.#connected.has(userId));
    if (next === undefined) return;
    const [userId, { signatureKey }] = next;
    this.#keyPackages.delete(userId);
    this.#roster.reset([{ userId, signatureKey }]);
    this.#log(`dave: ${userId} starts the group of channel ${this.#channelId}`);
    this.#reconcile();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The shape of the voice server's DAVE coordinator (helper A's `DaveCoordinator` in `./dave/`, contract
 * "DAVE split"), as the voice server uses it. Kept as an interface so the voice server depends on the
 * shape, not on the MLS code behind it.
 */
export interface DaveCoordinatorLike {
  /** A member connected with DAVE (after op 4 was sent to it); the coordinator sends it op 25 and more. */
  memberJoined(userId: string): void;
  /** A member's voice connection is gone. */
  memberLeft(userId: string): void;
  /** Op 26 payload (after the op byte). */
  onKeyPackage(userId: string, payload: Uint8Array): void;
  /** Op 28 payload (after the op byte). */
  onCommitWelcome(userId: string, payload: Uint8Array): void;
  /** Op 23. */
  onTransitionReady(userId: string, transitionId: number): void;
  /** Op 31. */
  onInvalidCommitWelcome(userId: string, transitionId: number): void;
  /** What to send to which users: JSON (`{op, d, seq}`) or binary (`u16 seq ‖ op ‖ payload`). */
  on(
    event: 'send',
    fn: (to: string[], op: number, body: { json: unknown } | { binary: Uint8Array }) => void,
  ): unknown;
  /** The MLS epoch of the call's group (0 before the first commit). */
  readonly epoch: bigint;
  /** Stops timers and forgets the group. */
  close(): void;
}

/** Makes one call's coordinator; `log` lines never carry secrets. */
export type DaveCoordinatorFactory = (options: {
  channelId: string;
  log: (line: string) => void;
}) => DaveCoordinatorLike;

import type { LogWriter } from '../../../logging/index.js';

/**
 * The shape of the DAVE protocol session (`DaveProtocolSession` in this folder) as the voice connection uses it:
 * the voice connection feeds it the DAVE opcodes and applies the media keys it announces. Kept as a type
 * here so the voice connection is written against the contract, not against one implementation's file.
 */
export interface DaveSessionLike {
  /** op 4 arrived with this `dave_protocol_version`. */
  onSessionDescription(daveProtocolVersion: number): Promise<void>;
  /** op 11. */
  onClientsConnect(userIds: string[]): void;
  /** op 13. */
  onClientDisconnect(userId: string): void;
  /** JSON DAVE ops 21, 22, 24. */
  onJson(op: number, d: unknown): Promise<void>;
  /** Binary DAVE ops 25, 27, 29, 30 (the payload after seq and op). */
  onBinary(op: number, payload: Uint8Array): Promise<void>;
  /** A JSON DAVE op (23, 31) to send to the voice gateway. */
  on(event: 'sendJson', fn: (op: number, d: unknown) => void): unknown;
  /** A binary DAVE op (26, 28) to send to the voice gateway. */
  on(event: 'sendBinary', fn: (op: number, payload: Uint8Array) => void): unknown;
  /** The player's media key for the new epoch, or null to send without end-to-end encryption. */
  on(event: 'sendKey', fn: (key: Uint8Array | null) => void): unknown;
  /** A participant's media key for the new epoch, or null when their frames arrive unencrypted. */
  on(event: 'receiveKey', fn: (userId: string, key: Uint8Array | null) => void): unknown;
  /** A new epoch took effect, with its privacy code and the protocol version. */
  on(
    event: 'epoch',
    fn: (info: { epoch: bigint; privacyCode: string; protocolVersion: number }) => void,
  ): unknown;
  /** The privacy code changed: a new epoch's, or null once there is no group. */
  on(event: 'privacyCode', fn: (code: string | null) => void): unknown;
  /** The negotiated protocol version (0 = not end-to-end encrypted). */
  readonly protocolVersion: number;
  /** The 30-digit privacy code of the current epoch, or null before the first one. */
  readonly privacyCode: string | null;
  /** The 45-digit code that verifies `userId`'s identity key with ours. */
  verificationCode(userId: string): Promise<string>;
  /** The transport counted this many more DAVE decrypt failures. */
  reportDecryptFailures(count: number): void;
  /** Ends the session. */
  close(): void;
}

/** Creates the DAVE session of one voice connection. */
export type DaveSessionFactory = (options: {
  selfUserId: string;
  channelId: string;
  /** The voice connection's log (no key material may be written to it). */
  log: LogWriter;
}) => DaveSessionLike;

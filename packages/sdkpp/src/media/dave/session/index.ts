/**
 * DAVE (Discord's audio and video end-to-end encryption) over MLS: the client session that keys the frame
 * cryptors (the client's composition root wires it into each voice connection), and the wire helpers it
 * shares with the emulator's voice server (@sdkpp/protocol/dave).
 *
 * Client side, one {@link DaveProtocolSession} per voice connection:
 * ```ts
 * const dave = new DaveProtocolSession({ selfUserId, channelId, logger });
 * dave.on('sendJson', (op, d) => ws.send(JSON.stringify({ op, d })));          // ops 23, 31
 * dave.on('sendBinary', (op, payload) => ws.send(Buffer.concat([Buffer.of(op), payload]))); // 26, 28
 * dave.on('sendKey', (key) => key ? encryptor.setKeyRatchet(key) : encryptor.setPassthrough()); // at op 22
 * dave.on('receiveKey', (userId, key) => ...);  // per user at op 29/30: key its decryptor (null: passthrough)
 * dave.on('epoch', ({ epoch, privacyCode }) => ...);
 * // op 4: await dave.onSessionDescription(d.dave_protocol_version); op 11/13: onClientsConnect/Disconnect;
 * // JSON ops 21, 22, 24: dave.onJson(op, d); binary ops 25, 27, 29, 30: dave.onBinary(op, bytes.subarray(3)).
 * ```
 * The MLS layer is ts-mls 2.0.0-rc.10 with sdkpp's two interop patches (@sdkpp/protocol's scripts/patch-ts-mls.mjs), cipher
 * suite 2 with P-256 ECDSA on node:crypto.
 * @packageDocumentation
 */
export {
  DaveProtocolSession,
  type DaveEpochInfo,
  type DaveProtocolSessionEvents,
  type DaveProtocolSessionOptions,
} from './DaveProtocolSession.js';
export { displayableCode, pairwiseFingerprint, privacyCode, verificationCode } from './codes.js';
export type { DaveSessionFactory, DaveSessionLike } from './daveSession.js';
export { DAVE_PROTOCOL_VERSION, DaveOp } from '@sdkpp/protocol/dave';
export { loadTsMls, type TsMls } from '@sdkpp/protocol/dave';

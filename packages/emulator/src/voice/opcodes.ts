import { VoiceOpcode } from '@sdkpp/protocol';

/** Voice gateway v8 opcodes (wire-protocols.md §2.2, dave-e2ee.md §1.2): one table, the shared protocol's. */
export const VoiceOp = VoiceOpcode;

/**
 * Client ops the platform's own clients send that the emulator has no use for (video, session flags,
 * platform, …; userdoccers): accepted and ignored after Identify rather than refused with 4001.
 */
export const IGNORED_CLIENT_OPS: ReadonlySet<number> = new Set([12, 14, 15, 16, 18, 19, 20, 32]);

/** Client ops that arrive as binary frames (`u8 op ‖ payload`). */
export const BINARY_CLIENT_OPS: ReadonlySet<number> = new Set([
  VoiceOp.DaveMlsKeyPackage,
  VoiceOp.DaveMlsCommitWelcome,
]);

/** Client ops that arrive as JSON text. */
export const JSON_CLIENT_OPS: ReadonlySet<number> = new Set([
  VoiceOp.Identify,
  VoiceOp.SelectProtocol,
  VoiceOp.Heartbeat,
  VoiceOp.Speaking,
  VoiceOp.Resume,
  VoiceOp.DaveTransitionReady,
  VoiceOp.DaveMlsInvalidCommitWelcome,
]);

/** The voice gateway versions served: 4 to 8 (v8 features are always on). */
export const VOICE_GATEWAY_VERSIONS = { min: 4, max: 8 } as const;

import { DAVE_PROTOCOL_VERSION } from '@sdkpp/protocol/dave';
import type { EmulatorLog } from '../log.js';
import type { DaveCoordinatorFactory, DaveCoordinatorLike } from './daveBridge.js';
import { VoiceOp } from './opcodes.js';
import type { VoiceSession } from './VoiceSession.js';

/** The voice server's per-call state: the call's voice sessions and its DAVE version and coordinator. */
export class ServerCallState {
  /** The lobby whose call this is. */
  readonly channelId: string;
  /** The voice sessions, by user. */
  readonly sessions = new Map<string, VoiceSession>();
  /** The call's DAVE coordinator while the call runs DAVE version 1. */
  dave: DaveCoordinatorLike | null = null;
  /** Decided by the first op 4: 1 with DAVE, 0 without (downgraded for good until the call empties). */
  daveVersion: number | null = null;

  /** @param channelId - The lobby or voice channel whose call this is. */
  constructor(channelId: string) {
    this.channelId = channelId;
  }

  /** The sessions that got op 4, but `except`. */
  described(except?: VoiceSession): VoiceSession[] {
    return [...this.sessions.values()].filter((s) => s !== except && s.described && !s.ended);
  }

  /**
   * The SSRC map for a session that just got op 4: who is here and what they are saying (op 11 + op 5),
   * and the newcomer for each of them, so every member can tell whose media an SSRC carries.
   */
  introduce(session: VoiceSession): void {
    const others = this.described(session);
    session.sendJson(VoiceOp.ClientsConnect, { user_ids: others.map((s) => s.userId) });
    for (const other of others) {
      session.sendJson(VoiceOp.Speaking, {
        speaking: other.speaking,
        ssrc: other.relay.ssrc,
        user_id: other.userId,
      });
    }
    for (const other of others) {
      other.sendJson(VoiceOp.ClientsConnect, { user_ids: [session.userId] });
      other.sendJson(VoiceOp.Speaking, {
        speaking: session.speaking,
        ssrc: session.relay.ssrc,
        user_id: session.userId,
      });
    }
  }
}

/** What deciding a call's DAVE version needs. */
export interface DaveWiring {
  /** Makes the call's coordinator; without it calls run DAVE version 0. */
  daveFactory: DaveCoordinatorFactory | undefined;
  /** The emulator's log. */
  log: EmulatorLog;
  /** Called when a call runs without DAVE for want of a factory (the server logs that once). */
  noFactory: () => void;
}

/**
 * The DAVE version for a session's op 4, making the call's coordinator on first use; a client without DAVE
 * (allowed by the option) downgrades the call.
 */
export function daveVersionFor(state: ServerCallState, session: VoiceSession, wiring: DaveWiring): number {
  const factory = wiring.daveFactory;
  if (!factory) {
    wiring.noFactory();
    state.daveVersion = 0;
    return 0;
  }
  if (session.maxDaveProtocolVersion < DAVE_PROTOCOL_VERSION) {
    if (state.daveVersion !== 0) downgrade(state, wiring.log);
    return 0;
  }
  if (state.daveVersion === 0) return 0;
  state.daveVersion = DAVE_PROTOCOL_VERSION;
  if (!state.dave) {
    const dave = factory({
      channelId: state.channelId,
      log: (line) => {
        wiring.log.line('dave', line);
      },
    });
    dave.on('send', (to, op, body) => {
      for (const userId of to) {
        const target = state.sessions.get(userId);
        if (!target || target.ended) continue;
        if ('json' in body) target.sendJson(op, body.json);
        else target.sendBinary(op, body.binary);
      }
    });
    state.dave = dave;
  }
  return DAVE_PROTOCOL_VERSION;
}

/** Moves a call to DAVE version 0 for good (until it empties): op 21 with transition 0 to DAVE members. */
function downgrade(state: ServerCallState, log: EmulatorLog): void {
  const wasDave = state.daveVersion === DAVE_PROTOCOL_VERSION;
  state.daveVersion = 0;
  state.dave?.close();
  state.dave = null;
  if (!wasDave) return;
  for (const member of state.described()) {
    if (member.daveProtocolVersion !== DAVE_PROTOCOL_VERSION) continue;
    member.daveProtocolVersion = 0;
    member.sendJson(VoiceOp.DavePrepareTransition, { protocol_version: 0, transition_id: 0 });
  }
  log.line('voice', `call of ${state.channelId} downgraded to DAVE version 0 (allowNonDave)`);
}

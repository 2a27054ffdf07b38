import type { GatewayConnection } from '../../gateway/GatewayConnection.js';
import { GatewayOpcode } from '@sdkpp/protocol';
import type { LogWriter } from '../../logging/index.js';
import type { ActiveCall } from './ActiveCall.js';

/** The main gateway's lobby voice opcode (contract: `d` is every lobby call the session wants). */
const OP_LOBBY_VOICE_STATES = GatewayOpcode.LobbyVoiceStates;

/** What the voice state sender needs from the call manager. */
export interface VoiceStateSenderDeps {
  /** The main gateway while Ready. */
  gateway: () => GatewayConnection | undefined;
  /** The calls the session wants to be in, read live at each send. */
  calls: ReadonlyMap<string, ActiveCall>;
  log: LogWriter;
}

/**
 * Tells the main gateway which lobby calls the session wants to be in (op 17), with the player's mute and
 * deafen in each. Op 17 carries the whole set, so every change sends all of it; a change while the gateway
 * is not Ready is remembered and sent by {@link VoiceStateSender.retry} once it is back.
 */
export class VoiceStateSender {
  readonly #d: VoiceStateSenderDeps;
  /** The lobby voice states changed while the main gateway was not Ready. */
  #pending = false;

  constructor(deps: VoiceStateSenderDeps) {
    this.#d = deps;
  }

  /** Sends the current set of calls, or marks it pending while the gateway is not Ready. */
  send(): void {
    const gateway = this.#d.gateway();
    // Not Ready (the main gateway is reconnecting): the pump sends them once it is back.
    this.#pending = !gateway;
    if (!gateway) return;
    const d = [...this.#d.calls.values()].map(({ selfVoiceState: s }) => ({
      lobby_id: s.lobbyId,
      self_mute: s.selfMute,
      self_deaf: s.selfDeaf,
    }));
    try {
      gateway.send(OP_LOBBY_VOICE_STATES, d);
    } catch (error) {
      this.#d.log.warn(`could not send the lobby voice states: ${(error as Error).message}`);
    }
  }

  /** Sends a pending change once the gateway is Ready again. */
  retry(): void {
    if (this.#pending && this.#d.gateway()) this.send();
  }
}

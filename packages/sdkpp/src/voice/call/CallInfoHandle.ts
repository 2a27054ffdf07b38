import type { VoiceStateStore } from './VoiceStateStore.js';
import type { VoiceStateHandle } from './VoiceStateHandle.js';

/**
 * The call of a lobby as every member sees it, in the call or not (`LobbyHandle.getCallInfoHandle`): who is
 * in it and their voice states. A live view.
 */
export class CallInfoHandle {
  readonly #store: VoiceStateStore;
  /** The lobby id. */
  readonly channelId: string;

  /** @internal Created by the SDK. */
  constructor(store: VoiceStateStore, lobbyId: string) {
    this.#store = store;
    this.channelId = lobbyId;
  }

  /** The lobby id (calls live in lobbies; the C++ SDK names it both ways). */
  get guildId(): string {
    return this.channelId;
  }

  /** The user ids of everyone in the call. */
  getParticipants(): string[] {
    return this.#store.participants(this.channelId);
  }

  /** A participant's voice state, or undefined when they are not in the call. */
  getVoiceStateHandle(userId: string): VoiceStateHandle | undefined {
    return this.#store.handle(this.channelId, userId);
  }
}

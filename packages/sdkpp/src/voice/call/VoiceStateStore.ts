import type { SessionFeature } from '../../session/SessionContext.js';
import type { LogWriter } from '../../logging/index.js';
import { isSnowflake } from '../../util/snowflake.js';
import { VoiceStateHandle, type VoiceStateData } from './VoiceStateHandle.js';

/** What changed for one participant of a lobby call. */
export type VoiceStateChange = 'added' | 'removed' | 'changed';

/** Reads a wire voice state; `lobbyId` is its `lobby_id`, else `guild_id`, else `fallbackLobbyId`. */
export function parseVoiceState(
  raw: unknown,
  fallbackLobbyId?: string,
): { state: VoiceStateData; inCall: boolean } | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const lobbyId = [r.lobby_id, r.guild_id, fallbackLobbyId].find(isSnowflake);
  if (!lobbyId || !isSnowflake(r.user_id)) return undefined;
  return {
    state: {
      userId: r.user_id,
      lobbyId,
      sessionId: typeof r.session_id === 'string' ? r.session_id : '',
      selfMute: r.self_mute === true,
      selfDeaf: r.self_deaf === true,
    },
    inCall: r.channel_id !== null && r.channel_id !== undefined,
  };
}

/**
 * The voice states of every lobby call the player can see (their lobbies), from READY and LOBBY_CREATE /
 * LOBBY_UPDATE `voice_states[]` and from (LOBBY_)VOICE_STATE_UPDATE. Tells its owner who joined, left or
 * changed their mute or deafen.
 */
export class VoiceStateStore implements SessionFeature {
  readonly #lobbies = new Map<string, Map<string, VoiceStateData>>();
  readonly #log: LogWriter;
  readonly #changed: (
    lobbyId: string,
    userId: string,
    change: VoiceStateChange,
    state: VoiceStateData,
  ) => void;

  constructor(
    log: LogWriter,
    changed: (lobbyId: string, userId: string, change: VoiceStateChange, state: VoiceStateData) => void,
  ) {
    this.#log = log;
    this.#changed = changed;
  }

  /** The user ids in a lobby's call. */
  participants(lobbyId: string): string[] {
    return [...(this.#lobbies.get(lobbyId)?.keys() ?? [])];
  }

  /** One participant's state, if they are in the call. */
  state(lobbyId: string, userId: string): VoiceStateData | undefined {
    return this.#lobbies.get(lobbyId)?.get(userId);
  }

  /** A live handle on a participant's state, or undefined when they are not in the call. */
  handle(lobbyId: string, userId: string): VoiceStateHandle | undefined {
    const initial = this.state(lobbyId, userId);
    return initial ? new VoiceStateHandle(() => this.state(lobbyId, userId), initial) : undefined;
  }

  /** READY: every lobby's call as it is now. */
  onReady(data: Record<string, unknown>): void {
    const seen = new Set<string>();
    for (const lobby of Array.isArray(data.lobbies) ? data.lobbies : []) {
      const id = (lobby as { id?: unknown } | null)?.id;
      if (!isSnowflake(id)) continue;
      seen.add(id);
      this.#replace(id, (lobby as { voice_states?: unknown }).voice_states);
    }
    for (const id of [...this.#lobbies.keys()]) if (!seen.has(id)) this.#replace(id, []);
  }

  /** The session ended: calls are forgotten (READY tells them again). */
  onDisconnected(): void {
    this.#lobbies.clear();
  }

  /** Voice state and lobby dispatches. */
  onDispatch(event: string, data: unknown): void {
    switch (event) {
      case 'LOBBY_VOICE_STATE_UPDATE':
      case 'VOICE_STATE_UPDATE': {
        const parsed = parseVoiceState(data);
        if (!parsed) {
          this.#log.warn(`${event} without a lobby or user id; ignored`);
          return;
        }
        this.#apply(parsed.state, parsed.inCall);
        return;
      }
      case 'LOBBY_CREATE':
      case 'LOBBY_UPDATE': {
        const lobby = data as { id?: unknown; voice_states?: unknown } | null;
        if (isSnowflake(lobby?.id) && Array.isArray(lobby.voice_states))
          this.#replace(lobby.id, lobby.voice_states);
        return;
      }
      case 'LOBBY_DELETE': {
        const id = (data as { id?: unknown } | null)?.id;
        if (isSnowflake(id)) this.#replace(id, []);
        return;
      }
      default:
    }
  }

  #replace(lobbyId: string, raw: unknown): void {
    const next = new Map<string, VoiceStateData>();
    for (const item of Array.isArray(raw) ? raw : []) {
      const parsed = parseVoiceState(item, lobbyId);
      if (parsed?.inCall) next.set(parsed.state.userId, { ...parsed.state, lobbyId });
    }
    const current = this.#lobbies.get(lobbyId) ?? new Map<string, VoiceStateData>();
    for (const [userId, state] of current) if (!next.has(userId)) this.#apply(state, false);
    for (const state of next.values()) this.#apply(state, true);
    if (next.size === 0) this.#lobbies.delete(lobbyId);
  }

  #apply(state: VoiceStateData, inCall: boolean): void {
    let lobby = this.#lobbies.get(state.lobbyId);
    const before = lobby?.get(state.userId);
    if (!inCall) {
      if (!before || !lobby) return;
      lobby.delete(state.userId);
      if (lobby.size === 0) this.#lobbies.delete(state.lobbyId);
      this.#changed(state.lobbyId, state.userId, 'removed', before);
      return;
    }
    if (!lobby) {
      lobby = new Map();
      this.#lobbies.set(state.lobbyId, lobby);
    }
    lobby.set(state.userId, state);
    if (!before) this.#changed(state.lobbyId, state.userId, 'added', state);
    else if (
      before.selfMute !== state.selfMute ||
      before.selfDeaf !== state.selfDeaf ||
      before.sessionId !== state.sessionId
    )
      this.#changed(state.lobbyId, state.userId, 'changed', state);
  }
}

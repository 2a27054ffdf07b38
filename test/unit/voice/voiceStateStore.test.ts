import { describe, expect, it } from 'vitest';

import {
  VoiceStateStore,
  type VoiceStateChange,
} from '../../../packages/sdkpp/src/voice/call/VoiceStateStore.js';
import { Logger } from '../../../packages/sdkpp/src/logging/index.js';

const LOBBY = '1000000000000000001';
const ALICE = '2000000000000000001';
const BOB = '2000000000000000002';

function state(userId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    lobby_id: LOBBY,
    channel_id: LOBBY,
    user_id: userId,
    session_id: `s-${userId}`,
    self_mute: false,
    self_deaf: false,
    ...extra,
  };
}

function store(): { store: VoiceStateStore; changes: string[]; warnings: string[] } {
  const changes: string[] = [];
  const warnings: string[] = [];
  const logger = new Logger();
  logger.addCallback((line) => warnings.push(line));
  const s = new VoiceStateStore(logger.writer('test'), (lobbyId, userId, change: VoiceStateChange) =>
    changes.push(`${lobbyId === LOBBY ? 'L' : lobbyId}:${userId === ALICE ? 'alice' : 'bob'}:${change}`),
  );
  return { store: s, changes, warnings };
}

describe('the voice states of lobby calls', () => {
  it('follows joins, mute changes and leaves from LOBBY_VOICE_STATE_UPDATE, and live handles read them', () => {
    const { store: s, changes } = store();
    s.onDispatch('LOBBY_VOICE_STATE_UPDATE', state(ALICE));
    const handle = s.handle(LOBBY, ALICE);
    expect(handle?.selfMute).toBe(false);
    s.onDispatch('LOBBY_VOICE_STATE_UPDATE', state(ALICE, { self_mute: true }));
    expect(handle?.selfMute).toBe(true);
    s.onDispatch('LOBBY_VOICE_STATE_UPDATE', state(ALICE, { self_mute: true })); // no change: no event
    s.onDispatch('VOICE_STATE_UPDATE', { ...state(BOB), lobby_id: undefined, guild_id: LOBBY }); // op 4 flavour
    expect(s.participants(LOBBY)).toEqual([ALICE, BOB]);
    s.onDispatch('LOBBY_VOICE_STATE_UPDATE', state(ALICE, { channel_id: null }));
    expect(s.participants(LOBBY)).toEqual([BOB]);
    expect(s.handle(LOBBY, ALICE)).toBeUndefined();
    expect(handle?.selfMute).toBe(true); // a handle keeps the last state it saw
    expect(changes).toEqual(['L:alice:added', 'L:alice:changed', 'L:bob:added', 'L:alice:removed']);
  });

  it('takes whole calls from READY and LOBBY_UPDATE, removing who is no longer listed', () => {
    const { store: s, changes } = store();
    s.onReady({ lobbies: [{ id: LOBBY, voice_states: [state(ALICE), state(BOB, { self_deaf: true })] }] });
    expect(s.state(LOBBY, BOB)?.selfDeaf).toBe(true);
    s.onDispatch('LOBBY_UPDATE', { id: LOBBY, voice_states: [state(BOB, { self_deaf: true })] });
    expect(s.participants(LOBBY)).toEqual([BOB]);
    s.onReady({ lobbies: [] }); // the lobby is gone
    expect(s.participants(LOBBY)).toEqual([]);
    expect(changes).toEqual(['L:alice:added', 'L:bob:added', 'L:alice:removed', 'L:bob:removed']);
  });

  it('ignores malformed states with a warning, and forgets everything on disconnect', () => {
    const { store: s, changes, warnings } = store();
    s.onDispatch('LOBBY_VOICE_STATE_UPDATE', { user_id: 'nope', channel_id: LOBBY });
    s.onDispatch('LOBBY_VOICE_STATE_UPDATE', null);
    expect(warnings).toHaveLength(2);
    s.onDispatch('LOBBY_VOICE_STATE_UPDATE', state(ALICE));
    s.onDisconnected();
    expect(s.participants(LOBBY)).toEqual([]);
    expect(changes).toEqual(['L:alice:added']);
  });
});

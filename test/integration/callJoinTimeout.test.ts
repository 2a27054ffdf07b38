import { describe, expect, it } from 'vitest';

import { CallError, CallStatus } from '../../packages/sdkpp/src/index.js';
import { player } from '../emulator/lobbyHelpers.js';
import { joinCall, lobbyWith } from '../emulator/voiceHelpers.js';
import { emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

describe('joining a call that never gets a voice server', () => {
  it('ends with CallError.JoinTimeout after callJoinTimeoutMs (the 26th player of a full call)', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 26 });
    // 25 players fill the call (raw main gateway sessions: op 17 and nothing more).
    const others = await Promise.all(emulator.users.slice(0, 25).map((u) => player(emulator, u.username)));
    const lobbyId = await lobbyWith(emulator, others, 'full-call');
    for (const other of others) {
      const { gw } = await other.connect();
      await joinCall(gw, other.id, lobbyId);
    }
    expect(emulator.voice.calls()[0]?.participants).toHaveLength(25);

    const last = await linkAndConnect(emulator, userAt(emulator, 25), { callJoinTimeoutMs: 600 });
    await last.client.createOrJoinLobby('full-call');
    const call = last.client.startCall(lobbyId);
    const seen: [CallStatus, CallError][] = [];
    call.on('statusChanged', (status, error) => seen.push([status, error]));
    const started = Date.now();
    await eventually(() => call.getStatus() === CallStatus.Disconnected, 5000, 'the join to time out');
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(seen.at(-1)).toEqual([CallStatus.Disconnected, CallError.JoinTimeout]);
    expect(last.client.getCall(lobbyId)).toBeUndefined();
  }, 60_000);
});

import { describe, expect, it } from 'vitest';

import {
  AudioModeType,
  Call,
  Client,
  ResetCallbacks,
  type AudioDevice,
  type ClientResult,
} from '../../packages/sdkpp/bindings/index.js';
import { pumpUntil, readyClient } from './bindingsHelpers.js';
import { emulatorFor } from './helpers.js';

describe('bindings: lobby calls with the C++ names', () => {
  it('StartCall to Connected through RunCallbacks, voice states, CallInfoHandle, devices and EndCall', async () => {
    ResetCallbacks();
    const emulator = await emulatorFor({ autoConsent: true, voice: { allowNonDave: true } });
    const alice = await readyClient(emulator, 'alice');
    const bob = await readyClient(emulator, 'bob');
    const aliceId = BigInt(emulator.users[0]?.id ?? '0');
    const bobId = BigInt(emulator.users[1]?.id ?? '0');
    let lobbyId = 0n;
    alice.CreateOrJoinLobby('bind-voice', (r, id) => {
      expect(r.Successful()).toBe(true);
      lobbyId = id;
    });
    await pumpUntil(() => lobbyId !== 0n);
    let bobJoined = false;
    bob.CreateOrJoinLobby('bind-voice', () => {
      bobJoined = true;
    });
    await pumpUntil(() => bobJoined && (alice.GetLobbyHandle(lobbyId)?.LobbyMemberIds().length ?? 0) === 2);

    const participants: [bigint, bigint, boolean][] = [];
    bob.SetVoiceParticipantChangedCallback((lobby, member, added) =>
      participants.push([lobby, member, added]),
    );
    const aliceCall = alice.StartCall(lobbyId);
    expect(aliceCall.IsValid()).toBe(true);
    expect(aliceCall.GetChannelId()).toBe(lobbyId);
    expect(aliceCall.GetStatus()).toBe(Call.Status.Joining);
    const statuses: string[] = [];
    aliceCall.SetStatusChangedCallback((status) => statuses.push(Call.StatusToString(status)));
    // A second StartCall for the same lobby is an invalid Call, as in the C++ SDK.
    expect(alice.StartCall(lobbyId).IsValid()).toBe(false);
    await pumpUntil(() => aliceCall.GetStatus() === Call.Status.Connected);
    expect(statuses).toEqual(['Connecting', 'SignalingConnected', 'Connected']);
    await pumpUntil(() => participants.some(([, member, added]) => member === aliceId && added));
    expect(bob.GetLobbyHandle(lobbyId)?.GetCallInfoHandle()?.GetParticipants()).toEqual([aliceId]);

    const bobCall = bob.StartCall(lobbyId);
    await pumpUntil(() => bobCall.GetStatus() === Call.Status.Connected);
    bobCall.SetSelfMute(true);
    await pumpUntil(() => aliceCall.GetVoiceStateHandle(bobId)?.SelfMute() === true);
    expect(aliceCall.GetVoiceStateHandle(bobId)?.SelfDeaf()).toBe(false);
    bobCall.SetAudioMode(AudioModeType.MODE_PTT);
    expect(bobCall.GetAudioMode()).toBe(AudioModeType.MODE_PTT);
    bobCall.SetVADThreshold(false, -30);
    expect(bobCall.GetVADThreshold().VadThreshold()).toBe(-30);
    expect(bobCall.GetVADThreshold().Automatic()).toBe(false);
    bobCall.SetParticipantVolume(aliceId, 150);
    expect(bobCall.GetParticipantVolume(aliceId)).toBe(150);
    bobCall.SetLocalMute(aliceId, true);
    expect(bobCall.GetLocalMute(aliceId)).toBe(true);
    expect(bob.GetCalls().map((c) => c.GetChannelId())).toEqual([lobbyId]);

    let inputs: AudioDevice[] = [];
    bob.GetInputDevices((devices) => {
      inputs = devices;
    });
    await pumpUntil(() => inputs.length > 0);
    expect(inputs[0]?.Id()).toBe('null');
    for (const device of inputs.slice(1)) expect(device.Id()).toMatch(/^(default|[a-z0-9]+:.+)$/);
    expect(inputs[0]?.IsDefault()).toBe(true);
    expect(Client.GetDefaultAudioDeviceId()).toBe('null');
    let refused: ClientResult | undefined;
    bob.SetInputDevice('microphone-3', (r) => {
      refused = r;
    });
    await pumpUntil(() => refused !== undefined);
    expect(refused?.Successful()).toBe(false);
    bob.SetInputVolume(500); // refused: unchanged
    expect(bob.GetInputVolume()).toBe(100);

    let ended = 0;
    bob.EndCall(lobbyId, () => ended++);
    alice.EndCalls(() => ended++);
    await pumpUntil(() => ended === 2);
    expect(bobCall.IsValid()).toBe(false);
    expect(bob.GetCall(lobbyId).IsValid()).toBe(false);
    await pumpUntil(() => participants.some(([, member, added]) => member === aliceId && !added));
  });
});

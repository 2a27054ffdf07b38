import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { Call, type AudioDevice } from '../../packages/sdkpp/bindings/index.js';
import { aliceAndBob, pumpUntil, succeeds } from './bindingsHelpers.js';
import { tempDir, writeToneWav } from './callHelpers.js';

/** Pumps until a result-only operation answered; fails on an unsuccessful result. */
describe('bindings coverage: calls and audio settings', () => {
  it('audio callbacks, speaking, participants, voice states, PTT, deafen, E2EE codes, devices and volumes', async () => {
    const { alice, bob, aliceId, bobId } = await aliceAndBob();
    let lobbyId = 0n;
    alice.CreateOrJoinLobby('coverage-voice', (_r, id) => {
      lobbyId = id;
    });
    await pumpUntil(() => lobbyId !== 0n);
    let joined = false;
    bob.CreateOrJoinLobby('coverage-voice', () => {
      joined = true;
    });
    await pumpUntil(() => joined && alice.GetLobbyHandle(lobbyId)?.LobbyMemberIds().length === 2);

    // Alice joins with the raw audio callbacks; they run on the audio pump, not through RunCallbacks. Her
    // microphone is a tone file too, so there is captured audio to see.
    const dir = tempDir();
    const aliceTone = path.join(dir, 'alice-tone.wav');
    writeToneWav(aliceTone, { hz: 660, seconds: 3 });
    await succeeds((cb) => alice.SetInputDevice(`wav-in:${aliceTone}`, cb));
    const heardFrom = new Set<bigint>();
    let capturedFrames = 0;
    const aliceCall = alice.StartCallWithAudioCallbacks(
      lobbyId,
      (userId, data, samplesPerChannel, sampleRate, channels, outShouldMute) => {
        expect([samplesPerChannel, sampleRate, channels]).toEqual([960, 48_000, 2]);
        if (data.some((sample) => sample !== 0)) heardFrom.add(userId);
        outShouldMute.value = false;
      },
      (data) => {
        if (data.some((sample) => sample !== 0)) capturedFrames += 1;
      },
    );
    expect(aliceCall.IsValid()).toBe(true);
    expect(aliceCall.GetGuildId()).toBe(lobbyId);
    const participants: Array<[bigint, boolean]> = [];
    const speaking: Array<[bigint, boolean]> = [];
    const voiceStates: bigint[] = [];
    aliceCall.SetParticipantChangedCallback((userId, added) => participants.push([userId, added]));
    aliceCall.SetSpeakingStatusChangedCallback((userId, isSpeaking) => speaking.push([userId, isSpeaking]));
    aliceCall.SetOnVoiceStateChangedCallback((userId) => voiceStates.push(userId));
    await pumpUntil(() => aliceCall.GetStatus() === Call.Status.Connected, 15_000);

    // Alice's microphone (her tone file, −15 dBFS) is heard above a −45 dBFS threshold.
    const inputDetected: boolean[] = [];
    alice.SetNoAudioInputCallback((detected) => inputDetected.push(detected));
    alice.SetNoAudioInputThreshold(-101); // out of range: logged, left unchanged (off)
    alice.SetNoAudioInputThreshold(-45);
    await pumpUntil(() => inputDetected.length > 0, 5000);
    expect(inputDetected).toEqual([true]);

    // Bob's microphone is a tone file; Alice hears it and sees him speak.
    const tone = path.join(dir, 'tone.wav');
    writeToneWav(tone, { hz: 440, seconds: 1.5 });
    await succeeds((cb) => bob.SetInputDevice(`wav-in:${tone}`, cb));
    const bobCall = bob.StartCall(lobbyId);
    await pumpUntil(() => bobCall.GetStatus() === Call.Status.Connected, 15_000);
    await pumpUntil(() => participants.some(([id, added]) => id === bobId && added));
    await pumpUntil(() => speaking.some(([id, on]) => id === bobId && on), 10_000);
    await pumpUntil(() => heardFrom.has(bobId), 10_000);
    expect(capturedFrames).toBeGreaterThan(0);

    // Both see the same end-to-end encryption codes.
    await pumpUntil(
      () => aliceCall.GetPrivacyCode() !== '' && aliceCall.GetPrivacyCode() === bobCall.GetPrivacyCode(),
      10_000,
    );
    expect(aliceCall.GetPrivacyCode()).toMatch(/^\d{30}$/);
    const codes: string[] = [];
    aliceCall.GetVerificationCode(bobId, (code) => codes.push(code));
    bobCall.GetVerificationCode(aliceId, (code) => codes.push(code));
    await pumpUntil(() => codes.length === 2);
    expect(codes[0]).toMatch(/^\d{45}$/);
    expect(codes[0]).toBe(codes[1]);

    // Deafening and push-to-talk, as the other side sees them.
    bobCall.SetSelfDeaf(true);
    expect(bobCall.GetSelfDeaf()).toBe(true);
    await pumpUntil(
      () => voiceStates.includes(bobId) && aliceCall.GetVoiceStateHandle(bobId)?.SelfDeaf() === true,
    );
    bobCall.SetSelfDeaf(false);
    expect(bobCall.GetSelfMute()).toBe(false);
    bobCall.SetPTTReleaseDelay(20);
    expect(bobCall.GetPTTReleaseDelay()).toBe(20);
    bobCall.SetPTTActive(true);
    expect(bobCall.GetPTTActive()).toBe(true);
    bobCall.SetPTTActive(false);

    // Client-wide switches.
    bob.SetSelfMuteAll(true);
    expect(bob.GetSelfMuteAll()).toBe(true);
    expect(bobCall.GetSelfMute()).toBe(true);
    bob.SetSelfMuteAll(false);
    bob.SetSelfDeafAll(true);
    expect(bob.GetSelfDeafAll()).toBe(true);
    bob.SetSelfDeafAll(false);
    bob.SetOutputVolume(150);
    expect(bob.GetOutputVolume()).toBe(150);
    bob.SetOutputVolume(201); // out of range: unchanged
    expect(bob.GetOutputVolume()).toBe(150);

    // Devices: the current ones, the output list, switching the output to a WAV file.
    let outputs: AudioDevice[] = [];
    let currentIn: AudioDevice | undefined;
    let currentOut: AudioDevice | undefined;
    bob.GetOutputDevices((devices) => {
      outputs = devices;
    });
    bob.GetCurrentInputDevice((device) => {
      currentIn = device;
    });
    bob.GetCurrentOutputDevice((device) => {
      currentOut = device;
    });
    await pumpUntil(() => outputs.length > 0 && currentIn !== undefined && currentOut !== undefined);
    // The null device first, then whatever system devices this machine has (`default` and `<backend>:<id>`).
    expect(outputs[0]?.Id()).toBe('null');
    for (const device of outputs.slice(1)) expect(device.Id()).toMatch(/^(default|[a-z0-9]+:.+)$/);
    expect(currentIn?.Id()).toBe(`wav-in:${tone}`);
    expect(currentOut?.Id()).toBe('null');
    const heard = path.join(dir, 'bob-hears.wav');
    await succeeds((cb) => bob.SetOutputDevice(`wav-out:${heard}`, cb));
    await pumpUntil(() => existsSync(heard));

    // Diagnostics: the voice log directory gets voice.log, and the AEC dump its recordings.
    const logDir = path.join(dir, 'voice-logs');
    bob.SetVoiceLogDir(logDir);
    bob.SetAecDump(true);
    bob.SetEngineManagedAudioSession(true); // no effect on desktop; accepted
    await pumpUntil(
      () => existsSync(logDir) && readdirSync(logDir).some((f) => f.startsWith('aec-')),
      10_000,
    );
    bob.SetAecDump(false);

    // Alice's 3 s tone has played out by now: a second later, no input.
    await pumpUntil(() => inputDetected.length === 2, 6000);
    expect(inputDetected).toEqual([true, false]);

    let ended = 0;
    alice.EndCalls(() => ended++);
    bob.EndCalls(() => ended++);
    await pumpUntil(() => ended === 2, 10_000);
    alice.Disconnect();
    bob.Disconnect();
    await alice.core.destroy();
    await bob.core.destroy();
  }, 60_000);
});

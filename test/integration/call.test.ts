import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { CallStatus, ValidationError } from '../../src/index.js';
import { eventually } from './helpers.js';
import {
  frameLevels,
  readWav,
  statuses,
  tempDir,
  toneStrength,
  twoInALobby,
  writeToneWav,
} from './callHelpers.js';

describe('lobby voice calls against the emulator', () => {
  it('two players reach Connected, see each other in the call, and a WAV tone in arrives in the WAV out', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true });
    const dir = tempDir();
    const toneIn = path.join(dir, 'tone.wav');
    const heard = path.join(dir, 'bob-hears.wav');
    writeToneWav(toneIn, { hz: 440, seconds: 1.5 });
    await bob.client.setOutputDevice(`wav-out:${heard}`);

    const aliceCall = alice.client.startCall(lobbyId);
    const aliceStatuses = statuses(aliceCall);
    expect(aliceCall.getStatus()).toBe(CallStatus.Joining);
    const bobCall = bob.client.startCall(lobbyId);
    const bobSpeaking: string[] = [];
    bobCall.on('speakingStatusChanged', (userId, speaking) => bobSpeaking.push(`${userId}:${speaking}`));
    await eventually(() => aliceCall.getStatus() === CallStatus.Connected, 10_000, 'Alice connected');
    await eventually(() => bobCall.getStatus() === CallStatus.Connected, 10_000, 'Bob connected');
    expect(aliceStatuses).toEqual([
      CallStatus.Joining,
      CallStatus.Connecting,
      CallStatus.SignalingConnected,
      CallStatus.Connected,
    ]);
    await eventually(() => aliceCall.getParticipants().length === 2, 5000, 'both participants');
    expect(new Set(bobCall.getParticipants())).toEqual(new Set([alice.user.id, bob.user.id]));
    expect(alice.client.getCall(lobbyId)).toBe(aliceCall);
    expect(alice.client.getCalls()).toEqual([aliceCall]);
    const info = bob.client.getLobbyHandle(lobbyId)?.getCallInfoHandle();
    expect(info?.getParticipants().sort()).toEqual([alice.user.id, bob.user.id].sort());

    // Alice's microphone is the tone file: Bob hears it and sees her speak.
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await eventually(() => bobSpeaking.includes(`${alice.user.id}:true`), 5000, 'Alice speaking at Bob');
    await eventually(() => bobSpeaking.includes(`${alice.user.id}:false`), 5000, 'Alice stops speaking');
    await bob.client.endCall(lobbyId);
    expect(bobCall.getStatus()).toBe(CallStatus.Disconnected);
    expect(bob.client.getCall(lobbyId)).toBeUndefined();

    const wav = readWav(heard);
    expect(wav.rate).toBe(48_000);
    expect(wav.channels).toBe(2);
    const levels = frameLevels(wav.samples);
    const loud = levels.map((level, i) => ({ level, i })).filter((f) => f.level > 2000);
    expect(loud.length).toBeGreaterThan(40);
    const first = loud[0]?.i ?? 0;
    const stretch = wav.samples.subarray((first + 5) * 1920, (first + 35) * 1920);
    expect(toneStrength(stretch, 440)).toBeGreaterThan(5000);
    expect(toneStrength(stretch, 1000)).toBeLessThan(500);
  });

  it('refuses bad input with a ValidationError before any I/O', async () => {
    const { alice, lobbyId } = await twoInALobby({ allowNonDave: true });
    expect(() => alice.client.startCall('123')).toThrow(ValidationError);
    expect(() => alice.client.startCall('not-a-lobby')).toThrow(ValidationError);
    const call = alice.client.startCall(lobbyId);
    expect(() => alice.client.startCall(lobbyId)).toThrow(ValidationError);
    expect(() => call.setParticipantVolume('1', 201)).toThrow(ValidationError);
    expect(() => call.setVADThreshold(false, 3)).toThrow(ValidationError);
    expect(() => alice.client.setInputVolume(101)).toThrow(ValidationError);
    expect(() => alice.client.setOutputVolume(-1)).toThrow(ValidationError);
    await expect(alice.client.setInputDevice('mic-7')).rejects.toThrow(ValidationError);
    await expect(alice.client.setOutputDevice('wav-in:/tmp/x.wav')).rejects.toThrow(ValidationError);
    await expect(alice.client.setInputDevice('wav-in:/nonexistent/file.wav')).rejects.toThrow(
      ValidationError,
    );
    await alice.client.endCall(lobbyId);
  });
});

import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  AudioModeType,
  CallStatus,
  ClientNotReadyError,
  ValidationError,
} from '../../packages/sdkpp/src/index.js';
import { allLogLines, eventually, linkAndConnect, userAt } from './helpers.js';
import {
  bothInCall,
  connected,
  frameLevels,
  readWav,
  statuses,
  tempDir,
  medianFrameTone,
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
    const frames = loud.map(({ i }) => i);
    const tone = medianFrameTone(wav.samples, frames, 440);
    expect(tone).toBeGreaterThan(2500);
    expect(tone).toBeGreaterThan(8 * medianFrameTone(wav.samples, frames, 1000));
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

describe('call state across two clients', () => {
  it('mute and deafen show in the voice states the other sees; participants and endCall are seen by both', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true });
    const lobbyWide: string[] = [];
    bob.client.setVoiceParticipantChangedCallback((lobby, member, added) =>
      lobbyWide.push(`${lobby}:${member}:${added}`),
    );
    const aliceCall = alice.client.startCall(lobbyId);
    await connected(aliceCall);
    // Bob is not in the call, but as a lobby member he sees Alice join it.
    await eventually(
      () => lobbyWide.includes(`${lobbyId}:${alice.user.id}:true`),
      5000,
      'Alice joined, at Bob',
    );
    expect(bob.client.getLobbyHandle(lobbyId)?.getCallInfoHandle()?.getParticipants()).toEqual([
      alice.user.id,
    ]);

    const bobCall = bob.client.startCall(lobbyId);
    const aliceSawParticipants: string[] = [];
    aliceCall.on('participantChanged', (userId, added) => aliceSawParticipants.push(`${userId}:${added}`));
    const aliceSawStates: string[] = [];
    aliceCall.setOnVoiceStateChangedCallback((userId) => aliceSawStates.push(userId));
    await connected(bobCall);
    await eventually(
      () => aliceSawParticipants.includes(`${bob.user.id}:true`),
      5000,
      'Bob joined, at Alice',
    );

    bobCall.setSelfMute(true);
    expect(bobCall.getSelfMute()).toBe(true);
    await eventually(
      () => aliceCall.getVoiceStateHandle(bob.user.id)?.selfMute === true,
      5000,
      'mute at Alice',
    );
    expect(aliceSawStates).toContain(bob.user.id);
    const handle = aliceCall.getVoiceStateHandle(bob.user.id);
    expect(handle?.selfDeaf).toBe(false);
    bob.client.setSelfDeafAll(true);
    expect(bobCall.getSelfDeaf()).toBe(true);
    expect(bob.client.getSelfDeafAll()).toBe(true);
    await eventually(() => handle?.selfDeaf === true, 5000, 'deafen at Alice (through the same live handle)');
    bobCall.setSelfMute(false);
    bobCall.setSelfDeaf(false);
    await eventually(
      () => handle !== undefined && !handle.selfDeaf && !handle.selfMute,
      5000,
      'unmute and undeafen at Alice',
    );

    await bob.client.endCall(lobbyId);
    await eventually(() => aliceSawParticipants.includes(`${bob.user.id}:false`), 5000, 'Bob left, at Alice');
    expect(aliceCall.getParticipants()).toEqual([alice.user.id]);
    expect(bobCall.isValid).toBe(false);
    expect(bobCall.getStatus()).toBe(CallStatus.Disconnected);
    await alice.client.endCalls();
    await eventually(
      () => lobbyWide.includes(`${lobbyId}:${alice.user.id}:false`),
      5000,
      'Alice left, at Bob',
    );
    expect(alice.client.getCalls()).toEqual([]);
  });

  it('a player who connects while a call runs sees it from READY, and cannot start one before Ready', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true });
    await bob.client.disconnect();
    expect(() => bob.client.startCall(lobbyId)).toThrow(ClientNotReadyError);
    const aliceCall = alice.client.startCall(lobbyId);
    await connected(aliceCall);
    aliceCall.setSelfMute(true);
    await eventually(
      () =>
        alice.client.getLobbyHandle(lobbyId)?.getCallInfoHandle()?.getVoiceStateHandle(alice.user.id)
          ?.selfMute === true,
      5000,
      'the muted state echoed',
    );
    await bob.client.connect();
    const info = bob.client.getLobbyHandle(lobbyId)?.getCallInfoHandle();
    expect(info?.channelId).toBe(lobbyId);
    expect(info?.getParticipants()).toEqual([alice.user.id]);
    expect(info?.getVoiceStateHandle(alice.user.id)?.selfMute).toBe(true);
    expect(info?.getVoiceStateHandle(bob.user.id)).toBeUndefined();
  });

  it('push-to-talk sends only while the key is held; voice activity follows the threshold', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true });
    const dir = tempDir();
    const toneIn = path.join(dir, 'long-tone.wav');
    writeToneWav(toneIn, { hz: 660, seconds: 20 });
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    const bobSpeaking: string[] = [];
    bobCall.on('speakingStatusChanged', (userId, speaking) => bobSpeaking.push(`${userId}:${speaking}`));
    aliceCall.setAudioMode(AudioModeType.MODE_PTT);
    aliceCall.setPTTReleaseDelay(100);
    expect(aliceCall.getAudioMode()).toBe(AudioModeType.MODE_PTT);
    expect(aliceCall.getPTTReleaseDelay()).toBe(100);
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await new Promise((r) => setTimeout(r, 400));
    expect(bobSpeaking).toEqual([]); // the tone plays, but the key is up
    aliceCall.setPTTActive(true);
    expect(aliceCall.getPTTActive()).toBe(true);
    await eventually(
      () => bobSpeaking.includes(`${alice.user.id}:true`),
      5000,
      'Alice speaking with the key down',
    );
    aliceCall.setPTTActive(false);
    await eventually(
      () => bobSpeaking.includes(`${alice.user.id}:false`),
      5000,
      'Alice silent with the key up',
    );
    // Back to voice activity: the tone is speech again, and Alice hears herself speak.
    const aliceSpeaking: string[] = [];
    aliceCall.on('speakingStatusChanged', (userId, speaking) => aliceSpeaking.push(`${userId}:${speaking}`));
    aliceCall.setAudioMode(AudioModeType.MODE_VAD);
    aliceCall.setVADThreshold(false, -40);
    expect(aliceCall.getVADThreshold()).toEqual({ automatic: false, vadThreshold: -40 });
    await eventually(() => aliceSpeaking.includes(`${alice.user.id}:true`), 5000, 'Alice speaking by VAD');
    // A threshold above the tone's level: silence again.
    aliceCall.setVADThreshold(false, -1);
    await eventually(
      () => aliceSpeaking.includes(`${alice.user.id}:false`),
      5000,
      'Alice below the threshold',
    );
  });

  it.each([{ engine: 'native' as const }, { engine: 'js' as const }])(
    'audio callbacks: each user before mixing (changed or muted in place), the microphone before sending ($engine engine)',
    async ({ engine }) => {
      const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true, mediaEngine: engine });
      const dir = tempDir();
      const toneIn = path.join(dir, 'tone.wav');
      const heard = path.join(dir, 'bob-hears.wav');
      writeToneWav(toneIn, { hz: 440, seconds: 20, amplitude: 8000 });
      await bob.client.setOutputDevice(`wav-out:${heard}`);
      let captured = 0;
      let capturedLoud = 0;
      const aliceCall = alice.client.startCallWithAudioCallbacks(
        lobbyId,
        () => undefined,
        (samples, perChannel, rate, channels) => {
          captured++;
          expect([samples.length, perChannel, rate, channels]).toEqual([1920, 960, 48_000, 2]);
          if (Math.abs(samples[100] ?? 0) + Math.abs(samples[300] ?? 0) > 0) capturedLoud++;
        },
      );
      let mode: 'mute' | 'halve' = 'mute';
      const seen = new Map<string, number>();
      const bobCall = bob.client.startCallWithAudioCallbacks(
        lobbyId,
        (userId, samples) => {
          seen.set(userId, (seen.get(userId) ?? 0) + 1);
          if (mode === 'mute') return true;
          for (let i = 0; i < samples.length; i++) samples[i] = Math.round((samples[i] ?? 0) / 2);
          return false;
        },
        () => undefined,
      );
      await connected(aliceCall);
      await connected(bobCall);
      await alice.client.setInputDevice(`wav-in:${toneIn}`);
      await eventually(() => (seen.get(alice.user.id) ?? 0) >= 50, 5000, "Alice's frames in Bob's callback");
      expect([...seen.keys()]).toEqual([alice.user.id]);
      expect(capturedLoud).toBeGreaterThan(40);
      expect(captured).toBeGreaterThanOrEqual(capturedLoud);
      // Muted by the callback: Bob's playout stays silent.
      await bob.client.setOutputDevice(`wav-out:${heard}`); // a fresh file from here
      await new Promise((r) => setTimeout(r, 600));
      await bob.client.setOutputDevice('null');
      expect(Math.max(...frameLevels(readWav(heard).samples))).toBe(0);
      // Halved in place: Bob hears the tone at half its level.
      mode = 'halve';
      await bob.client.setOutputDevice(`wav-out:${heard}`);
      await new Promise((r) => setTimeout(r, 800));
      await bob.client.setOutputDevice('null');
      const halved = frameLevels(readWav(heard).samples).filter((level) => level > 500);
      expect(halved.length).toBeGreaterThan(20);
      const median = [...halved].sort((a, b) => a - b)[Math.floor(halved.length / 2)] ?? 0;
      expect(median).toBeGreaterThan((8000 / Math.SQRT2 / 2) * 0.7);
      expect(median).toBeLessThan((8000 / Math.SQRT2 / 2) * 1.3);
      // Deafened, nothing reaches the callback or the playout.
      bobCall.setSelfDeaf(true);
      await new Promise((r) => setTimeout(r, 200));
      const before = seen.get(alice.user.id) ?? 0;
      await new Promise((r) => setTimeout(r, 400));
      expect(seen.get(alice.user.id) ?? 0).toBe(before);
    },
  );
});

describe('end-to-end encrypted calls (DAVE)', () => {
  it.each([{ engine: 'native' as const }, { engine: 'js' as const }])(
    'two players agree on the privacy and verification codes, and audio crosses encrypted ($engine engine)',
    async ({ engine }) => {
      const { alice, bob, lobbyId } = await twoInALobby({ mediaEngine: engine });
      const dir = tempDir();
      const toneIn = path.join(dir, 'tone.wav');
      const heard = path.join(dir, 'bob-hears.wav');
      writeToneWav(toneIn, { hz: 523, seconds: 20 });
      await bob.client.setOutputDevice(`wav-out:${heard}`);
      const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
      await eventually(
        () => aliceCall.getPrivacyCode() !== '' && aliceCall.getPrivacyCode() === bobCall.getPrivacyCode(),
        10_000,
        'the same privacy code on both sides',
      );
      expect(aliceCall.getPrivacyCode()).toMatch(/^\d{30}$/);
      const fromAlice = await aliceCall.getVerificationCode(bob.user.id);
      const fromBob = await bobCall.getVerificationCode(alice.user.id);
      expect(fromAlice).toMatch(/^\d{45}$/);
      expect(fromAlice).toBe(fromBob);
      expect(allLogLines.some((line) => line.includes('DAVE protocol version 1'))).toBe(true);

      await alice.client.setInputDevice(`wav-in:${toneIn}`);
      await new Promise((r) => setTimeout(r, 1200));
      await bob.client.setOutputDevice('null');
      const levels = frameLevels(readWav(heard).samples);
      const loud = levels.map((level, i) => ({ level, i })).filter((f) => f.level > 2000);
      expect(loud.length).toBeGreaterThan(25);
      // The tone (amplitude 8000) is there and dominates, frame by frame.
      const samples = readWav(heard).samples;
      const frames = loud.map(({ i }) => i);
      const tone = medianFrameTone(samples, frames, 523);
      expect(tone).toBeGreaterThan(2500);
      expect(tone).toBeGreaterThan(8 * medianFrameTone(samples, frames, 1000));
    },
  );

  it('the privacy code changes as members join and leave, is shared by all, and is empty when alone', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby({ users: 3 });
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    // Each privacyCodeChanged carries what getPrivacyCode() then returns, and never repeats a value.
    const aliceSaw: string[] = [];
    aliceCall.on('privacyCodeChanged', (code) => {
      expect(code).toBe(aliceCall.getPrivacyCode());
      aliceSaw.push(code);
    });
    await eventually(
      () => aliceCall.getPrivacyCode() !== '' && aliceCall.getPrivacyCode() === bobCall.getPrivacyCode(),
      10_000,
      'a shared privacy code',
    );
    const before = aliceCall.getPrivacyCode();
    const carol = await linkAndConnect(emulator, userAt(emulator, 2));
    await carol.client.createOrJoinLobby('voice-secret');
    const carolCall = carol.client.startCall(lobbyId);
    await connected(carolCall);
    await eventually(
      () =>
        carolCall.getPrivacyCode() !== '' &&
        [aliceCall, bobCall].every((call) => call.getPrivacyCode() === carolCall.getPrivacyCode()),
      10_000,
      'one new privacy code for all three',
    );
    expect(carolCall.getPrivacyCode()).not.toBe(before);
    expect(await carolCall.getVerificationCode(alice.user.id)).toBe(
      await aliceCall.getVerificationCode(carol.user.id),
    );
    // Bob leaves: Alice and Carol move to a new epoch without him.
    const withBob = carolCall.getPrivacyCode();
    await bob.client.endCall(lobbyId);
    await eventually(
      () =>
        aliceCall.getPrivacyCode() !== '' &&
        aliceCall.getPrivacyCode() !== withBob &&
        aliceCall.getPrivacyCode() === carolCall.getPrivacyCode(),
      10_000,
      'a new code for the two left',
    );
    // Carol leaves too: Alice is alone, her group is reset, and no stale code is shown.
    await carol.client.endCall(lobbyId);
    await eventually(() => aliceCall.getPrivacyCode() === '', 10_000, 'no privacy code when alone');
    expect(aliceCall.getStatus()).toBe(CallStatus.Connected);

    expect(aliceSaw.at(-1)).toBe('');
    expect(aliceSaw).toContain(withBob);
    expect(aliceSaw.every((code, i) => i === 0 || code !== aliceSaw[i - 1])).toBe(true);
    // The two-member code (if Alice had not seen it before listening), Carol's arrival, Bob's and Carol's leaving.
    expect(new Set(aliceSaw.filter((code) => code !== '')).size).toBeGreaterThanOrEqual(2);
  });

  it('tells the game when the microphone goes quiet and when it is heard again (no-audio-input threshold)', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true });
    const toneIn = path.join(tempDir(), 'one-second.wav');
    writeToneWav(toneIn, { hz: 440, seconds: 1 });
    expect(alice.client.getNoAudioInputThreshold()).toBe(-100);
    for (const bad of [-101, 1, Number.NaN]) {
      expect(() => alice.client.setNoAudioInputThreshold(bad)).toThrow(ValidationError);
    }
    alice.client.setNoAudioInputThreshold(-40);
    const detected: Array<[boolean, number]> = [];
    alice.client.on('audioInputDetected', (inputDetected) => detected.push([inputDetected, Date.now()]));

    await bothInCall(alice.client, bob.client, lobbyId);
    // The null device delivers nothing: after a second, no input.
    await eventually(() => detected.length === 1, 5000, 'no input on the null device');
    expect(detected[0]?.[0]).toBe(false);
    // A second of tone (−15 dBFS) is heard at once; when the file has played, silence again after a second.
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await eventually(() => detected.length === 2, 5000, 'input detected');
    expect(detected[1]?.[0]).toBe(true);
    await eventually(() => detected.length === 3, 5000, 'no input once the file has played');
    expect(detected[2]?.[0]).toBe(false);
    expect((detected[2]?.[1] ?? 0) - (detected[1]?.[1] ?? 0)).toBeGreaterThanOrEqual(1900);
  });

  it('participant volume and local mute change only what this player hears', async () => {
    const { alice, bob, lobbyId } = await twoInALobby({ allowNonDave: true });
    const dir = tempDir();
    const toneIn = path.join(dir, 'tone.wav');
    writeToneWav(toneIn, { hz: 440, seconds: 30, amplitude: 8000 });
    const { bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    const listen = async (name: string, ms = 800): Promise<number[]> => {
      const file = path.join(dir, `${name}.wav`);
      await bob.client.setOutputDevice(`wav-out:${file}`);
      await new Promise((r) => setTimeout(r, ms));
      await bob.client.setOutputDevice('null');
      return frameLevels(readWav(file).samples).filter((level) => level > 300);
    };
    const middle = (levels: number[]): number =>
      [...levels].sort((a, b) => a - b)[Math.floor(levels.length / 2)] ?? 0;
    const full = await listen('full');
    expect(full.length).toBeGreaterThan(20);
    bobCall.setParticipantVolume(alice.user.id, 50);
    expect(bobCall.getParticipantVolume(alice.user.id)).toBe(50);
    await new Promise((r) => setTimeout(r, 100));
    const half = await listen('half');
    expect(half.length).toBeGreaterThan(20);
    expect(middle(half) / middle(full)).toBeGreaterThan(0.4);
    expect(middle(half) / middle(full)).toBeLessThan(0.6);
    bob.client.setOutputVolume(200); // the whole playout doubled: back to the full level
    const doubled = await listen('doubled');
    expect(middle(doubled) / middle(full)).toBeGreaterThan(0.8);
    expect(middle(doubled) / middle(full)).toBeLessThan(1.2);
    bobCall.setLocalMute(alice.user.id, true);
    await new Promise((r) => setTimeout(r, 100));
    expect(await listen('muted')).toEqual([]);
    // Alice still sends: the mute is Bob's alone.
    expect(alice.client.getCall(lobbyId)?.getSelfMute()).toBe(false);
  });
});

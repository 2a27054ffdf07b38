import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  CallError,
  CallStatus,
  ClientStatus,
  LoggingSeverity,
  ValidationError,
} from '../../packages/sdkpp/src/index.js';
import { allLogLines, allSecrets, eventually, linkAndConnect, userAt } from './helpers.js';
import {
  bothInCall,
  frameLevels,
  readWav,
  tempDir,
  toneAndRecording,
  medianFrameTone,
  twoInALobby,
} from './callHelpers.js';

describe('calls through network trouble and moderation', () => {
  it('a dropped voice socket resumes (Reconnecting → Connected) and audio keeps flowing', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby();
    const { toneIn, heard } = toneAndRecording();
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    const seen: CallStatus[] = [];
    aliceCall.on('statusChanged', (status) => seen.push(status));
    await eventually(() => aliceCall.getPrivacyCode() !== '', 10_000, 'the DAVE group');
    const code = aliceCall.getPrivacyCode();
    expect(emulator.voice.dropConnections(alice.user.id)).toBe(1);
    await eventually(() => seen.includes(CallStatus.Reconnecting), 5000, 'Reconnecting');
    await eventually(() => aliceCall.getStatus() === CallStatus.Connected, 10_000, 'Connected again');
    // A resume keeps the voice session: same group, same privacy code.
    expect(aliceCall.getPrivacyCode()).toBe(code);
    expect(allLogLines.some((line) => line.includes('voice session resumed'))).toBe(true);
    await bob.client.setOutputDevice(`wav-out:${heard}`);
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await new Promise((r) => setTimeout(r, 1000));
    await bob.client.setOutputDevice('null');
    const lv = frameLevels(readWav(heard).samples);
    expect(lv.filter((level) => level > 2000).length).toBeGreaterThan(20);
    expect(bobCall.getStatus()).toBe(CallStatus.Connected);
  });

  it('a main gateway drop that resumes leaves the call up; a disconnect ends it', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby();
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    const statuses: CallStatus[] = [];
    aliceCall.on('statusChanged', (status) => statuses.push(status));
    expect(emulator.dropGatewayConnections(alice.user.id)).toBeGreaterThan(0);
    await eventually(() => alice.client.getStatus() !== ClientStatus.Ready, 5000, 'the drop seen');
    // Muted while the main gateway is away: the lobby voice state goes out once it is back.
    aliceCall.setSelfMute(true);
    await eventually(() => alice.client.getStatus() === ClientStatus.Ready, 10_000, 'the main gateway back');
    await eventually(
      () => bobCall.getVoiceStateHandle(alice.user.id)?.selfMute === true,
      5000,
      'mute at Bob',
    );
    expect(statuses).toEqual([]);
    expect(aliceCall.getStatus()).toBe(CallStatus.Connected);
    await alice.client.disconnect();
    expect(aliceCall.getStatus()).toBe(CallStatus.Disconnected);
    expect(aliceCall.isValid).toBe(false);
    await eventually(() => !bobCall.getParticipants().includes(alice.user.id), 10_000, 'Alice gone at Bob');
  });

  it('a kick (voice close 4014) ends the call with SignalingUnexpectedClose and no reconnect', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby();
    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    const ended: [CallStatus, CallError, number][] = [];
    bobCall.on('statusChanged', (status, error, detail) => ended.push([status, error, detail]));
    const left: string[] = [];
    aliceCall.on('participantChanged', (userId, added) => {
      if (!added) left.push(userId);
    });
    expect(emulator.voice.kick(lobbyId, bob.user.id)).toBe(true);
    await eventually(() => bobCall.getStatus() === CallStatus.Disconnected, 5000, 'Bob disconnected');
    expect(ended.at(-1)).toEqual([CallStatus.Disconnected, CallError.SignalingUnexpectedClose, 4014]);
    expect(bobCall.isValid).toBe(false);
    expect(bob.client.getCalls()).toEqual([]);
    await eventually(() => left.includes(bob.user.id), 5000, 'Bob gone at Alice');
    await new Promise((r) => setTimeout(r, 300));
    expect(emulator.voice.calls().flatMap((call) => call.participants.map((p) => p.userId))).toEqual([
      alice.user.id,
    ]);
    // He can join again.
    const again = bob.client.startCall(lobbyId);
    await eventually(() => again.getStatus() === CallStatus.Connected, 10_000, 'Bob back');
  });

  it('writes the voice log to the voice log dir, with no secret in it', async () => {
    const { alice, bob, lobbyId } = await twoInALobby();
    const dir = tempDir();
    alice.client.setVoiceLogDir(dir);
    alice.client.setAecDump(true);
    // Bob keeps only warnings and errors in his file.
    const bobDir = tempDir();
    expect(() => bob.client.setVoiceLogDir(bobDir, 99 as unknown as LoggingSeverity)).toThrow(
      ValidationError,
    );
    bob.client.setVoiceLogDir(bobDir, LoggingSeverity.Warning);
    const { aliceCall } = await bothInCall(alice.client, bob.client, lobbyId);
    await eventually(() => aliceCall.getPrivacyCode() !== '', 10_000, 'the DAVE group');
    await alice.client.endCall(lobbyId);
    await bob.client.endCall(lobbyId);
    const log = readFileSync(path.join(dir, 'voice.log'), 'utf8');
    expect(log).toMatch(/^\S+ info /m);
    const bobLog = existsSync(path.join(bobDir, 'voice.log'))
      ? readFileSync(path.join(bobDir, 'voice.log'), 'utf8')
      : '';
    expect(bobLog.split('\n').filter((line) => line !== '' && !/^\S+ (warn|error) /.test(line))).toEqual([]);
    expect(log).toMatch(/voice ready: ssrc \d+/);
    expect(log).toMatch(/Connecting → SignalingConnected/);
    expect(log).toMatch(/DAVE protocol version 1/);
    for (const secret of [...allSecrets, alice.accessToken, bob.accessToken])
      expect(log).not.toContain(secret);
    const tokens = allLogLines.filter((line) => line.includes('token')).join('\n');
    expect(tokens).not.toMatch(/"token":"[^*"]{10,}/);
  });

  it('over a lossy, jittery, reordering network the tone still arrives, concealed', async () => {
    const { emulator, alice, bob, lobbyId } = await twoInALobby();
    const { toneIn, heard } = toneAndRecording();
    const { aliceCall } = await bothInCall(alice.client, bob.client, lobbyId);
    await eventually(() => aliceCall.getPrivacyCode() !== '', 10_000, 'the DAVE group');
    emulator.voice.setImpairment({ lossPercent: 10, jitterMs: 15, reorderPercent: 5, seed: 7 });
    await bob.client.setOutputDevice(`wav-out:${heard}`);
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await new Promise((r) => setTimeout(r, 2000));
    await bob.client.setOutputDevice('null');
    const stats = emulator.voice.impairmentStats();
    expect(stats?.dropped).toBeGreaterThan(5);
    const samples = readWav(heard).samples;
    const levels = frameLevels(samples);
    const first = levels.findIndex((level) => level > 2000);
    expect(first).toBeGreaterThanOrEqual(0);
    // After the start, nearly every frame carries sound: lost packets are concealed, not silent gaps.
    const after = levels.slice(first + 5, first + 65);
    expect(after.length).toBe(60);
    expect(after.filter((level) => level > 1000).length).toBeGreaterThan(54);
    const window = Array.from({ length: 60 }, (_, k) => first + 5 + k);
    expect(medianFrameTone(samples, window, 440)).toBeGreaterThan(4000);
  });
});

describe('calls without end-to-end encryption', () => {
  it('a client without DAVE is refused by an E2EE-only voice server: Disconnected / Forbidden / 4017', async () => {
    const { emulator, alice, lobbyId } = await twoInALobby();
    const plain = await linkAndConnect(emulator, userAt(emulator, 1), { daveSessionFactory: false });
    await plain.client.createOrJoinLobby('voice-secret');
    await eventually(() => plain.client.getLobbyHandle(lobbyId) !== undefined, 5000, 'Bob in the lobby');
    const call = plain.client.startCall(lobbyId);
    const seen: [CallStatus, CallError, number][] = [];
    call.on('statusChanged', (status, error, detail) => seen.push([status, error, detail]));
    await eventually(() => call.getStatus() === CallStatus.Disconnected, 10_000, 'the refusal');
    expect(seen.at(-1)).toEqual([CallStatus.Disconnected, CallError.Forbidden, 4017]);
    expect(plain.client.getCalls()).toEqual([]);
    expect(alice.client.getCalls()).toEqual([]);
  });

  it('with allowNonDave, a client without DAVE downgrades the call to transport encryption, and audio flows', async () => {
    const { emulator, alice, lobbyId } = await twoInALobby({ allowNonDave: true });
    const plain = await linkAndConnect(emulator, userAt(emulator, 1), { daveSessionFactory: false });
    await plain.client.createOrJoinLobby('voice-secret');
    await eventually(() => plain.client.getLobbyHandle(lobbyId) !== undefined, 5000, 'Bob in the lobby');
    const { toneIn, heard } = toneAndRecording('plain-hears.wav');
    const { aliceCall, bobCall } = await bothInCall(alice.client, plain.client, lobbyId);
    expect(bobCall.getPrivacyCode()).toBe('');
    await expect(bobCall.getVerificationCode(alice.user.id)).rejects.toThrow(/not end-to-end encrypted/);
    await plain.client.setOutputDevice(`wav-out:${heard}`);
    await alice.client.setInputDevice(`wav-in:${toneIn}`);
    await new Promise((r) => setTimeout(r, 1200));
    await plain.client.setOutputDevice('null');
    expect(frameLevels(readWav(heard).samples).filter((level) => level > 2000).length).toBeGreaterThan(25);
    expect(aliceCall.getStatus()).toBe(CallStatus.Connected);
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Call, Client } from '../../packages/sdkpp/src/index.js';
import { CallStatus } from '../../packages/sdkpp/src/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { emulatorFor, eventually, linkAndConnect, userAt, type LinkedPlayer } from './helpers.js';

/** A fresh temporary directory for WAV files and voice logs. */
export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'sdkpp-call-'));
}

/**
 * A scratch folder with a 30 s 440 Hz tone to speak (`toneIn`) and the path of a file to record what a player
 * hears (`heard`, named `heardName`).
 */
export function toneAndRecording(heardName = 'bob-hears.wav'): { toneIn: string; heard: string } {
  const dir = tempDir();
  const toneIn = path.join(dir, 'tone.wav');
  writeToneWav(toneIn, { hz: 440, seconds: 30 });
  return { toneIn, heard: path.join(dir, heardName) };
}

/** Writes a 16-bit PCM WAV file of a sine tone. */
export function writeToneWav(
  file: string,
  options: { hz?: number; seconds?: number; amplitude?: number; rate?: number; channels?: number } = {},
): void {
  const { hz = 440, seconds = 2, amplitude = 8000, rate = 48_000, channels = 2 } = options;
  const frames = Math.round(seconds * rate);
  const data = Buffer.alloc(frames * channels * 2);
  for (let i = 0; i < frames; i++) {
    const sample = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
    for (let c = 0; c < channels; c++) data.writeInt16LE(sample, (i * channels + c) * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  writeFileSync(file, Buffer.concat([header, data]));
}

/** Reads a 48 kHz stereo 16-bit WAV file the SDK wrote: its header fields and samples. */
export function readWav(file: string): {
  rate: number;
  channels: number;
  dataBytes: number;
  samples: Int16Array;
} {
  const bytes = readFileSync(file);
  const dataBytes = bytes.readUInt32LE(40);
  const samples = new Int16Array(dataBytes / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(44 + i * 2);
  return { rate: bytes.readUInt32LE(24), channels: bytes.readUInt16LE(22), dataBytes, samples };
}

/** The RMS of each 20 ms frame of interleaved stereo. */
export function frameLevels(samples: Int16Array): number[] {
  const levels: number[] = [];
  for (let start = 0; start + 1920 <= samples.length; start += 1920) {
    let sum = 0;
    for (let i = start; i < start + 1920; i++) sum += (samples[i] ?? 0) * (samples[i] ?? 0);
    levels.push(Math.sqrt(sum / 1920));
  }
  return levels;
}

/**
 * The strength of `hz` in a stretch of interleaved stereo (left channel), by correlation with a sine and a
 * cosine: about the tone's amplitude when it is there, near 0 when not.
 */
export function toneStrength(samples: Int16Array, hz: number, rate = 48_000): number {
  let s = 0;
  let c = 0;
  const n = Math.floor(samples.length / 2);
  for (let i = 0; i < n; i++) {
    const x = samples[2 * i] ?? 0;
    s += x * Math.sin((2 * Math.PI * hz * i) / rate);
    c += x * Math.cos((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.sqrt(s * s + c * c)) / Math.max(1, n);
}

/**
 * The median of {@link toneStrength} over the given 20 ms stereo frames. Per frame, because across frames a
 * loaded machine's jitter-buffer stretches shift the phase, which says nothing about what was heard.
 */
export function medianFrameTone(samples: Int16Array, frames: readonly number[], hz: number): number {
  const strengths = frames
    .map((i) => toneStrength(samples.subarray(i * 1920, (i + 1) * 1920), hz))
    .sort((a, b) => a - b);
  return strengths[strengths.length >> 1] ?? 0;
}

/** Two linked players in one lobby on a voice-enabled emulator. */
export async function twoInALobby(
  options: { allowNonDave?: boolean; users?: number; mediaEngine?: 'native' | 'js' } = {},
): Promise<{ emulator: Emulator; alice: LinkedPlayer; bob: LinkedPlayer; lobbyId: string }> {
  const emulator = await emulatorFor({
    autoConsent: true,
    users: options.users ?? 2,
    ...(options.allowNonDave ? { voice: { allowNonDave: true } } : {}),
  });
  const engine = options.mediaEngine ? { mediaEngine: options.mediaEngine } : {};
  const alice = await linkAndConnect(emulator, userAt(emulator, 0), engine);
  const bob = await linkAndConnect(emulator, userAt(emulator, 1), engine);
  const lobbyId = await alice.client.createOrJoinLobby('voice-secret');
  await bob.client.createOrJoinLobby('voice-secret');
  await eventually(
    () => alice.client.getLobbyHandle(lobbyId)?.lobbyMemberIds.length === 2,
    5000,
    'both members at Alice',
  );
  return { emulator, alice, bob, lobbyId };
}

/** Records a call's statuses. */
export function statuses(call: Call): CallStatus[] {
  const seen: CallStatus[] = [call.getStatus()];
  call.on('statusChanged', (status) => seen.push(status));
  return seen;
}

/** Waits for a call to reach Connected. */
export async function connected(call: Call, timeoutMs = 10_000): Promise<void> {
  await eventually(() => call.getStatus() === CallStatus.Connected, timeoutMs, 'the call to connect');
}

/** Both players' calls in the lobby, started and connected. */
export async function bothInCall(
  alice: Client,
  bob: Client,
  lobbyId: string,
): Promise<{ aliceCall: Call; bobCall: Call }> {
  const aliceCall = alice.startCall(lobbyId);
  const bobCall = bob.startCall(lobbyId);
  await connected(aliceCall);
  await connected(bobCall);
  return { aliceCall, bobCall };
}

/** Waits until both calls hold the same DAVE epoch (one non-empty privacy code), so no frame meets a missing key. */
export async function sameEpoch(a: Call, b: Call): Promise<void> {
  await eventually(
    () => a.getPrivacyCode() !== '' && a.getPrivacyCode() === b.getPrivacyCode(),
    10_000,
    'one DAVE epoch at both',
  );
}

/**
 * Starts a lobby call for two players: `listener` with a received callback that adds up the energy of what
 * arrives from `speaker` (before the listener's mix), `speaker` plainly; resolves once both are Connected.
 */
export async function measuredCall(
  listener: LinkedPlayer,
  speaker: LinkedPlayer,
  lobbyId: string,
): Promise<{ listenerCall: Call; speakerCall: Call; energy: { total: number } }> {
  const energy = { total: 0 };
  const listenerCall = listener.client.startCallWithAudioCallbacks(
    lobbyId,
    (userId, samples) => {
      if (userId !== speaker.user.id) return;
      for (const s of samples) energy.total += s * s;
    },
    () => undefined,
  );
  const speakerCall = speaker.client.startCall(lobbyId);
  await connected(listenerCall);
  await connected(speakerCall);
  return { listenerCall, speakerCall, energy };
}

/**
 * Pushes 48 kHz stereo `pcm` into a client's calls as the clock says (every 10 ms, however late the timer),
 * as a game's own audio; resolves `tailMs` after the last sample.
 */
export async function pushInRealTime(
  client: Client,
  pcm: Int16Array,
  options: { microphone?: boolean },
  tailMs: number,
): Promise<void> {
  const started = performance.now();
  const durationMs = (pcm.length / 2 / 48_000) * 1000;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(pcm.length / 2, Math.floor(((performance.now() - started) / 1000) * 48_000));
      if (due > sent) client.pushAudioInput(pcm.subarray(sent * 2, due * 2), 48_000, 2, options);
      sent = due;
      if (performance.now() - started > durationMs + tailMs) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
}

// Players in a lobby call against a local emulator, for the call benches (bench/call.ts). The integration
// tests have helpers for this too, but theirs register vitest hooks; these have no test runner behind them
// and log nothing (no log line of a bench run can hold a token).
import {
  AuthorizationTokenType,
  CallStatus,
  callErrorToString,
  callStatusToString,
  Client,
  type Call,
  type ClientOptions,
  type MediaEnginePreference,
} from '../../packages/sdkpp/src/index.js';
import { startEmulator, type Emulator, type EmulatorUser } from '../../packages/emulator/src/index.js';
import { WavFileOutput } from '../../packages/protocol/src/wav.js';

/** One linked, connected player. */
export interface BenchPlayer {
  readonly client: Client;
  readonly user: EmulatorUser;
}

/** An emulator with `users` players linked (through its auto-consent browser), connected and in one lobby. */
export interface BenchLobby {
  readonly emulator: Emulator;
  readonly players: BenchPlayer[];
  readonly lobbyId: string;
  /** Destroys the clients, then closes the emulator. */
  close(): Promise<void>;
}

/** Resolves once `predicate` holds (polled every millisecond or so); rejects after `timeoutMs`. */
export async function until(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = performance.now();
  while (!predicate()) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Client options a bench may add: its own log callback (no log line of a bench run can hold a token). */
export type BenchClientOptions = Pick<ClientOptions, 'debug' | 'logCallback' | 'logSeverity'>;

/** A client of `emulator` whose consent page opens as `user` (never a desktop client on this machine). */
function clientAs(
  emulator: Emulator,
  user: EmulatorUser,
  mediaEngine?: MediaEnginePreference,
  options: BenchClientOptions = {},
): Client {
  return new Client({
    apiBase: emulator.api,
    webBase: emulator.http,
    applicationId: emulator.applicationId,
    openUrl: emulator.browserAs(user.username),
    localClient: false,
    ...(mediaEngine === undefined ? {} : { mediaEngine }),
    ...options,
  });
}

/** Authorizes with PKCE (the client's `openUrl` plays the user on the consent page) and exchanges the code. */
async function consentedAccessToken(client: Client): Promise<string> {
  const pkce = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize({ codeChallenge: pkce.challenge });
  const tokens = await client.getToken({ code, codeVerifier: pkce.verifier, redirectUri });
  return tokens.accessToken;
}

/**
 * Links `user` through the emulator's consent page (PKCE) with a client that then goes away; returns the
 * access token, for a player whose client runs in another process (bench/mainThread.ts hands it over IPC).
 */
export async function accessTokenOf(emulator: Emulator, user: EmulatorUser): Promise<string> {
  const client = clientAs(emulator, user);
  try {
    return await consentedAccessToken(client);
  } finally {
    await client.destroy();
  }
}

/** Links `user` through the emulator's consent page (PKCE), then connects the client to Ready. */
export async function linkAndConnect(
  emulator: Emulator,
  user: EmulatorUser,
  mediaEngine: MediaEnginePreference,
  options: BenchClientOptions = {},
): Promise<BenchPlayer> {
  const client = clientAs(emulator, user, mediaEngine, options);
  await client.updateToken(AuthorizationTokenType.Bearer, await consentedAccessToken(client));
  await client.connect();
  return { client, user };
}

/**
 * Starts an emulator (voice on, DAVE required as by default) on ephemeral loopback ports, links and connects
 * `users` players whose clients use `mediaEngine` (and `options(i)` for the i-th), and puts them all in one
 * lobby.
 */
export async function playersInALobby(
  users: number,
  mediaEngine: MediaEnginePreference,
  options: (index: number) => BenchClientOptions = () => ({}),
): Promise<BenchLobby> {
  const emulator = await startEmulator({ port: 0, users, autoConsent: true });
  const players: BenchPlayer[] = [];
  try {
    for (const [index, user] of emulator.users.slice(0, users).entries()) {
      players.push(await linkAndConnect(emulator, user, mediaEngine, options(index)));
    }
    let lobbyId = '';
    for (const player of players) lobbyId = await player.client.createOrJoinLobby('bench-call');
    const first = players[0]?.client;
    await until(
      () => first?.getLobbyHandle(lobbyId)?.lobbyMemberIds.length === users,
      5000,
      'every player in the lobby',
    );
    return {
      emulator,
      players,
      lobbyId,
      async close() {
        await Promise.all(players.map((p) => p.client.destroy()));
        await emulator.close();
      },
    };
  } catch (error) {
    await Promise.all(players.map((p) => p.client.destroy()));
    await emulator.close();
    throw error;
  }
}

/** Waits until `call` is Connected. */
export async function connected(call: Call, timeoutMs = 10_000): Promise<void> {
  let last = '';
  call.on('statusChanged', (status, error, detail) => {
    last = `${callStatusToString(status)}${error ? ` (${callErrorToString(error)} ${detail})` : ''}`;
  });
  await until(
    () => call.getStatus() === CallStatus.Connected,
    timeoutMs,
    `the call to connect (status ${callStatusToString(call.getStatus())}, last change ${last || 'none'})`,
  );
}

/** Waits until every call shows one non-empty privacy code: all of them are in the same DAVE epoch. */
export async function sameEpoch(calls: Call[], timeoutMs = 10_000): Promise<void> {
  await until(
    () => {
      const code = calls[0]?.getPrivacyCode() ?? '';
      return code !== '' && calls.every((call) => call.getPrivacyCode() === code);
    },
    timeoutMs,
    'one DAVE epoch on every call',
  );
}

/** The samples of one 20 ms frame per channel at 48 kHz. */
export const FRAME_SAMPLES_PER_CHANNEL = 960;

/**
 * Writes a 48 kHz stereo 16-bit WAV file: `leadInFrames` of silence, then `bursts` tone bursts of
 * `burstFrames` 20 ms frames each, one every `periodFrames`, every burst starting exactly on a frame
 * boundary (so the first frame of a burst is the first loud frame the capture side reads).
 */
export function writeBurstWav(
  file: string,
  options: { leadInFrames: number; bursts: number; burstFrames: number; periodFrames: number; hz: number },
): void {
  const { leadInFrames, bursts, burstFrames, periodFrames, hz } = options;
  const frames = leadInFrames + bursts * periodFrames;
  const samples = frames * FRAME_SAMPLES_PER_CHANNEL;
  const data = Buffer.alloc(samples * 4);
  for (let b = 0; b < bursts; b++) {
    const start = (leadInFrames + b * periodFrames) * FRAME_SAMPLES_PER_CHANNEL;
    const length = burstFrames * FRAME_SAMPLES_PER_CHANNEL;
    for (let i = 0; i < length; i++) {
      const value = Math.round(12_000 * Math.sin((2 * Math.PI * hz * i) / 48_000));
      data.writeInt16LE(value, (start + i) * 4);
      data.writeInt16LE(value, (start + i) * 4 + 2);
    }
  }
  saveWav(file, data);
}

/**
 * Writes a 48 kHz stereo 16-bit WAV file of `leadInMs` of silence, then `seconds` of a speech-like signal
 * (a tone gliding between 150 and 450 Hz with a little noise, loud enough that voice activity detection
 * says "voice" throughout), for players that talk without a pause.
 */
export function writeTalkWav(file: string, options: { leadInMs: number; seconds: number }): void {
  const lead = Math.round((options.leadInMs / 1000) * 48_000);
  const samples = lead + Math.round(options.seconds * 48_000);
  const data = Buffer.alloc(samples * 4);
  let seed = 11;
  let phase = 0;
  for (let i = lead; i < samples; i++) {
    const t = (i - lead) / 48_000;
    const hz = 300 + 150 * Math.sin(2 * Math.PI * 0.7 * t);
    phase += (2 * Math.PI * hz) / 48_000;
    seed = (seed * 1103515245 + 12345) >>> 0;
    const value = Math.round(7000 * Math.sin(phase) + (seed / 2 ** 32 - 0.5) * 800);
    data.writeInt16LE(value, i * 4);
    data.writeInt16LE(value, i * 4 + 2);
  }
  saveWav(file, data);
}

/** Writes `data` (48 kHz stereo 16-bit little-endian samples) as a WAV file. */
function saveWav(file: string, data: Buffer): void {
  const out = new WavFileOutput(file);
  try {
    out.write(new Int16Array(data.buffer, data.byteOffset, data.length / 2));
  } finally {
    out.close();
  }
}

/** The largest absolute sample of a frame. */
export function peak(samples: Int16Array): number {
  let max = 0;
  for (const sample of samples) {
    const magnitude = sample < 0 ? -sample : sample;
    if (magnitude > max) max = magnitude;
  }
  return max;
}

/** The `q` quantile (0..1) of `values`, nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

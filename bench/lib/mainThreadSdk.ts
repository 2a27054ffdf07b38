// The measured client of `call-main-thread-25` on sdkpp (bench/mainThread.ts runs it in its own process):
// a player who joins the lobby's call, talks from a WAV file and hears the 24 others through the default
// (null) output device, as a game would with the call running in the background. Argument: the media
// engine, `native` or `js`, or `native-callbacks` (the native engine, with the game's PCM callbacks).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  AuthorizationTokenType,
  Client,
  type MediaEnginePreference,
} from '../../packages/sdkpp/src/index.js';
import { connected } from './callSetup.js';
import { measureWindow, nextMessage, runChild, settled, sleep, tell } from './mainThreadIpc.js';

// `native-callbacks`: the native engine with the game's PCM callbacks on every frame.
const kind = process.argv[2];
if (kind !== 'native' && kind !== 'js' && kind !== 'native-callbacks')
  throw new Error('usage: mainThreadSdk.ts native|native-callbacks|js');
const engine: MediaEnginePreference = kind === 'js' ? 'js' : 'native';

/** The largest absolute sample of a 16-bit PCM WAV file written by the `wav-out:` device. */
function wavPeak(file: string): { peak: number; frames: number } {
  const bytes = readFileSync(file);
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset + 44, (bytes.length - 44) >> 1);
  let peak = 0;
  for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
  return { peak, frames: samples.length / 1920 };
}

runChild(async (config) => {
  const client = new Client({
    apiBase: config.api,
    webBase: config.http,
    applicationId: config.applicationId,
    localClient: false,
    mediaEngine: engine,
  });
  try {
    await client.updateToken(AuthorizationTokenType.Bearer, config.token);
    await client.connect();
    const lobbyId = await client.createOrJoinLobby(config.lobbySecret);
    if (lobbyId !== config.lobbyId) throw new Error('joined another lobby than the bench call');
    await client.setInputDevice(`wav-in:${config.wav}`);
    let heardFrames = 0;
    const call =
      kind === 'native-callbacks'
        ? client.startCallWithAudioCallbacks(
            lobbyId,
            () => {
              heardFrames++;
            },
            () => undefined,
          )
        : client.startCall(lobbyId);
    await connected(call, 20_000);
    tell({ type: 'ready', privacyCode: await settled(() => call.getPrivacyCode()) });
    await nextMessage('go');
    const measured = await measureWindow(config.warmupMs, config.windowMs);
    // After the window: one second of what the player hears goes to a file, to check it was the others.
    const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-bench-main-'));
    try {
      const heard = path.join(dir, 'heard.wav');
      await client.setOutputDevice(`wav-out:${heard}`);
      await sleep(1000);
      await client.setOutputDevice('null');
      const { peak, frames } = wavPeak(heard);
      const participants = call.getParticipants().length;
      tell({
        type: 'result',
        result: {
          ...measured,
          ok: participants === 25 && peak > 3000,
          detail:
            `${participants} in the call; after the window, ${frames.toFixed(0)} frames heard in 1 s, peak ${peak}` +
            (kind === 'native-callbacks' ? `; ${heardFrames} speaker frames reached the callback` : ''),
        },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await nextMessage('leave');
    await client.endCall(lobbyId);
  } finally {
    await client.destroy();
  }
});

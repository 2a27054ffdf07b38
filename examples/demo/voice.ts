import { mkdirSync } from 'node:fs';
import path from 'node:path';

import {
  matchAudio,
  readWavFile,
  synthesizeSpeech,
  SpeechSynthesisError,
  writeWavFile,
  type SpeechAudio,
} from '@sdkpp/emulator';

import { CallStatus, type Call } from 'sdkpp';

import { say } from './print.js';
import { idOf, type Player } from './social.js';

/** Where the demo leaves what each player said and heard. */

const LINES = {
  alice: { text: 'Bob, can you hear me? The castle gate is open, bring the torch.', voice: 'en-us' },
  bob: { text: 'Loud and clear, Alice. I am on my way to the gate.', voice: 'en-us+m3' },
} as const;

/** Speech from the espeak-ng package, or, without it, a sung vowel-like tone sequence of the same length. */
async function speechFor(who: keyof typeof LINES): Promise<{ audio: SpeechAudio; synthetic: boolean }> {
  try {
    return { audio: await synthesizeSpeech(LINES[who].text, { voice: LINES[who].voice }), synthetic: true };
  } catch (error) {
    if (!(error instanceof SpeechSynthesisError)) throw error;
    const frames = 48_000 * 3;
    const pcm = new Int16Array(frames * 2);
    for (let i = 0; i < frames; i++) {
      const pitch = (who === 'alice' ? 220 : 140) * (1 + 0.1 * Math.sin((2 * Math.PI * i) / 24_000));
      const syllable = Math.max(0, Math.sin((Math.PI * i) / 9600)); // ~5 syllables a second
      const sample = Math.round(8000 * syllable * Math.sin((2 * Math.PI * pitch * i) / 48_000));
      pcm[2 * i] = sample;
      pcm[2 * i + 1] = sample;
    }
    return { audio: { pcm, durationMs: 3000 }, synthetic: false };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** RMS of one 20 ms frame of interleaved stereo. */
function level(samples: Int16Array): number {
  let sum = 0;
  for (const value of samples) sum += value * value;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/**
 * The players start a call in their lobby (end-to-end encrypted with DAVE), compare the privacy code, speak
 * generated speech to each other through virtual microphones (WAV files), and check what the other heard:
 * correlation with what was said, and the latency from Alice's microphone to Bob's ear.
 */
export async function lobbyVoiceCall(
  alice: Player,
  bob: Player,
  lobbyId: string,
  output: string,
): Promise<void> {
  const outputDir = path.resolve(output);
  mkdirSync(outputDir, { recursive: true });
  const file = (name: string): string => path.join(outputDir, name);
  const [aliceLine, bobLine] = await Promise.all([speechFor('alice'), speechFor('bob')]);
  if (!aliceLine.synthetic)
    say('voice', 'no espeak-ng package installed: the players hum instead of speaking');
  writeWavFile(file('alice-says.wav'), aliceLine.audio.pcm);
  writeWavFile(file('bob-says.wav'), bobLine.audio.pcm);
  await alice.client.setOutputDevice(`wav-out:${file('alice-hears.wav')}`);
  await bob.client.setOutputDevice(`wav-out:${file('bob-hears.wav')}`);

  // Bob's game watches his microphone, as a settings screen would ("we can't hear you").
  const MIC_THRESHOLD_DBFS = -50;
  bob.client.setNoAudioInputThreshold(MIC_THRESHOLD_DBFS);
  const bobsMic: string[] = [];
  bob.client.on('audioInputDetected', (heard) => bobsMic.push(heard ? 'heard' : 'silent'));

  // Mouth to ear: when Alice's microphone frame with her first word is captured, and when Bob first hears it.
  let spokeAt: number | undefined;
  let heardAt: number | undefined;
  const aliceCall = alice.client.startCallWithAudioCallbacks(
    lobbyId,
    () => undefined,
    (samples) => {
      if (spokeAt === undefined && level(samples) > 1000) spokeAt = performance.now();
    },
  );
  const bobCall = bob.client.startCallWithAudioCallbacks(
    lobbyId,
    (_userId, samples) => {
      if (heardAt === undefined && spokeAt !== undefined && level(samples) > 1000)
        heardAt = performance.now();
    },
    () => undefined,
  );
  const connected = (call: Call): boolean => call.getStatus() === CallStatus.Connected;
  await until(() => connected(aliceCall) && connected(bobCall), 15_000, 'both players in the call');
  await until(
    () => aliceCall.getPrivacyCode() !== '' && aliceCall.getPrivacyCode() === bobCall.getPrivacyCode(),
    15_000,
    'one end-to-end encrypted epoch',
  );
  const code = aliceCall.getPrivacyCode().replace(/(\d{5})(?=\d)/g, '$1 ');
  say(alice.name, `in a voice call with ${bob.name}: end-to-end encrypted, privacy code ${code}`);
  say(
    bob.name,
    `sees the same privacy code: ${aliceCall.getPrivacyCode() === bobCall.getPrivacyCode() ? 'yes' : 'NO'}`,
  );
  const aliceView = await aliceCall.getVerificationCode(idOf(bob));
  const bobView = await bobCall.getVerificationCode(idOf(alice));
  say(
    alice.name,
    `verification code with ${bob.name} matches on both sides: ${aliceView === bobView ? 'yes' : 'NO'}`,
  );

  // Each speaks in turn through a virtual microphone (a WAV file); their speakers are WAV files too.
  say(alice.name, `says: "${LINES.alice.text}"`);
  await alice.client.setInputDevice(`wav-in:${file('alice-says.wav')}`);
  await sleep(aliceLine.audio.durationMs + 800);
  say(bob.name, `says: "${LINES.bob.text}"`);
  await bob.client.setInputDevice(`wav-in:${file('bob-says.wav')}`);
  await sleep(bobLine.audio.durationMs + 800);
  await alice.client.endCall(lobbyId);
  await bob.client.endCall(lobbyId);
  bob.client.setNoAudioInputThreshold(-100);
  say(bob.name, `microphone (threshold ${MIC_THRESHOLD_DBFS} dBFS): ${bobsMic.join(' → ')}`);

  const bobHeard = matchAudio(aliceLine.audio.pcm, readWavFile(file('bob-hears.wav')));
  const aliceHeard = matchAudio(bobLine.audio.pcm, readWavFile(file('alice-hears.wav')));
  say(bob.name, `heard Alice: correlation ${bobHeard.segmentCorrelation.toFixed(2)} with what she said`);
  say(alice.name, `heard Bob: correlation ${aliceHeard.segmentCorrelation.toFixed(2)} with what he said`);
  if (spokeAt !== undefined && heardAt !== undefined) {
    say('voice', `mouth to ear, Alice to Bob: ${Math.round(heardAt - spokeAt)} ms (jitter buffer included)`);
  }
  say('voice', `what each said and heard is in ${path.relative(process.cwd(), outputDir)}/ as WAV files`);
}

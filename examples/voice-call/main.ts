/**
 * Voice call sample: joins a lobby's voice call, plays a WAV file into it and records what the others say.
 * With `--emulator <url>` it joins a call on an emulator another terminal started, so two terminals can talk;
 * without, it starts an emulator here and a second participant who talks back. See README.md.
 */
import path from 'node:path';

import { emulatorBrowser, emulatorInfoAt, startEmulator, type Emulator } from '@sdkpp/emulator';

import type { Client } from 'sdkpp';

import { generateSpeechFile, loadPlayback, summarizeRecording, type Playback } from './audioFiles.js';
import { talkInLobbyCall, type CallPlan } from './callSession.js';
import { readOptions, USAGE, type VoiceCallOptions } from './options.js';
import { heardPartner, startPartner } from './partner.js';
import { say, UsageError } from './print.js';
import { askInTerminal, gameClient, signIn, type Platform } from './signIn.js';

const GREETING = 'Hello from the voice call sample. If you can hear this, the call works both ways.';

/** The WAV file to play: the one given (checked now, before any call), or generated speech. */
async function playbackFor(options: VoiceCallOptions): Promise<Playback> {
  if (options.play !== undefined) return loadPlayback(options.play);
  const file = path.join(path.dirname(options.record), 'said.wav');
  const generated = await generateSpeechFile(file, GREETING, 'en-us', 200);
  say(
    'audio',
    generated.spoken
      ? `no --play file: generated speech with espeak-ng: "${GREETING}" (${path.relative(process.cwd(), file)})`
      : `no --play file and no espeak-ng package: a hummed tune instead (${path.relative(process.cwd(), file)})`,
  );
  return generated;
}

function planFor(options: VoiceCallOptions, playback: Playback): CallPlan {
  return {
    lobbySecret: options.lobbySecret,
    playback,
    record: options.record,
    seconds: options.seconds ?? Math.max(playback.seconds, 5) + 2,
    waitSeconds: options.waitSeconds,
    narrate: true,
  };
}

function summarize(who: string, options: VoiceCallOptions, heardFrom: string[]): void {
  const recording = summarizeRecording(options.record);
  const peak = Number.isFinite(recording.peakDbfs) ? `${recording.peakDbfs.toFixed(1)} dBFS` : 'silence';
  say(
    'summary',
    `${who} recorded ${recording.seconds.toFixed(1)} s to ${options.record}: peak level ${peak}, ` +
      `sound in ${recording.audibleSeconds.toFixed(1)} s; in the call: ${heardFrom.join(', ') || 'nobody else'}`,
  );
}

/** One command shows it all: an emulator here, the player, and a second participant who talks back. */
async function runEmbedded(options: VoiceCallOptions, playback: Playback): Promise<void> {
  const emulator: Emulator = await startEmulator({ users: 2, autoConsent: true, rpc: false });
  const clients: Client[] = [];
  try {
    say('emulator', `platform emulator up at ${emulator.http} (voice ws://${emulator.voice.endpoint})`);
    const user = options.user ?? 'alice';
    const partnerUser = emulator.users.find((u) => u.username !== user);
    if (!emulator.users.some((u) => u.username === user) || !partnerUser)
      throw new UsageError(
        `the embedded emulator has the users ${emulator.users.map((u) => u.username).join(' and ')}`,
      );
    const me = gameClient(emulator, emulator.browserAs(user));
    clients.push(me);
    await signIn(me, user);
    const partner = await startPartner(emulator, partnerUser.username, options, planFor(options, playback));
    clients.push(partner.client);
    // The player listens until the partner has answered.
    const plan = {
      ...planFor(options, playback),
      seconds: options.seconds ?? playback.seconds + partner.line.seconds + 3,
    };
    const [heardFrom] = await Promise.all([talkInLobbyCall(me, user, plan), partner.talk()]);
    summarize(user, options, heardFrom);
    const match = heardPartner(partner.line, options.record);
    say(
      'summary',
      `what ${user} recorded matches what ${partnerUser.username} said: correlation ${match.toFixed(2)}`,
    );
    const theyHeard = heardPartner(playback, partner.recording);
    say('summary', `${partnerUser.username} heard what ${user} played: correlation ${theyHeard.toFixed(2)}`);
  } finally {
    await Promise.all(clients.map((c) => c.destroy()));
    await emulator.close();
  }
}

/** Joins a call on an emulator another terminal runs; whoever else joins the same lobby is heard. */
async function runAgainst(options: VoiceCallOptions, playback: Playback): Promise<void> {
  const http = options.emulator ?? '';
  const platform: Platform = {
    http,
    api: `${http}/api/v10`,
    applicationId: options.applicationId ?? (await emulatorInfoAt(http)).applicationId,
  };
  const label = options.user ?? 'you';
  // With --user, the sample answers the emulator's consent page as that user (the emulator lists its users).
  const client = gameClient(
    platform,
    options.user ? emulatorBrowser(http, options.user) : askInTerminal(label),
  );
  try {
    say(label, `signing in at ${platform.http}`);
    await signIn(client, label);
    const heardFrom = await talkInLobbyCall(client, label, planFor(options, playback));
    summarize(label, options, heardFrom);
  } finally {
    await client.destroy();
  }
}

async function main(): Promise<number> {
  let options: VoiceCallOptions | undefined;
  try {
    options = readOptions(process.argv.slice(2), process.env);
    if (!options) {
      process.stdout.write(USAGE);
      return 0;
    }
    const playback = await playbackFor(options);
    if (options.emulator === undefined) await runEmbedded(options, playback);
    else await runAgainst(options, playback);
    say('voice-call', 'done');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`voice-call: ${error.message}\n${options ? '' : `\n${USAGE}`}`);
      return 2;
    }
    process.stderr.write(`voice-call: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main();

import path from 'node:path';

import { matchAudio, readWavFile, type Emulator } from '@sdkpp/emulator';

import type { Client } from 'sdkpp';

import { generateSpeechFile, loadPlayback, type Playback } from './audioFiles.js';
import { talkInLobbyCall, type CallPlan } from './callSession.js';
import type { VoiceCallOptions } from './options.js';
import { say } from './print.js';
import { gameClient, signIn } from './signIn.js';

/** What the second participant says when no `--partner-play` file is given. */
export const PARTNER_LINE = 'Hi, this is Bob on the other side of the call. I hear you loud and clear.';

/** The second participant of the one-command mode: a real SDK client, signed in as another emulator user. */
export interface Partner {
  /** Its SDK client. */
  readonly client: Client;
  /** What it says into the call. */
  readonly line: Playback;
  /** The WAV file with what it heard. */
  readonly recording: string;
  /** Joins the call, speaks, listens, and leaves; resolves with the names of those in the call. */
  talk(): Promise<string[]>;
}

/** Signs the second participant in and prepares what it will say. */
export async function startPartner(
  emulator: Emulator,
  username: string,
  options: VoiceCallOptions,
  plan: CallPlan,
): Promise<Partner> {
  const folder = path.dirname(path.resolve(options.record));
  const line =
    options.partnerPlay !== undefined
      ? loadPlayback(options.partnerPlay, '--partner-play')
      : await generateSpeechFile(path.join(folder, `${username}-said.wav`), PARTNER_LINE, 'en-us+m3', 130);
  const client = gameClient(emulator, emulator.browserAs(username));
  await signIn(client, username);
  const recording = path.join(folder, `${username}-heard.wav`);
  const partnerPlan: CallPlan = {
    ...plan,
    playback: line,
    record: recording,
    // Answers once the player's WAV has played, and stays until the player has heard it all.
    answerAfterSeconds: plan.playback.seconds + 0.5,
    seconds: plan.playback.seconds + 0.5 + line.seconds + 3,
    waitSeconds: 30,
    narrate: false,
  };
  return {
    client,
    line,
    recording,
    talk: async () => {
      if (options.partnerPlay === undefined) say(username, `will answer: "${PARTNER_LINE}"`);
      return talkInLobbyCall(client, username, partnerPlan);
    },
  };
}

/** How alike what was said and what a recording holds: the segment correlation of {@link matchAudio}. */
export function heardPartner(said: Playback, recording: string): number {
  return matchAudio(said.pcm, readWavFile(recording)).segmentCorrelation;
}

import { parseArgs } from 'node:util';

import { UsageError } from './print.js';

/** What the command line asked for. */
export interface VoiceCallOptions {
  /** The WAV file to play into the call, or undefined to generate speech. */
  play: string | undefined;
  /** Where to record what the player hears. */
  record: string;
  /** An emulator another terminal started, or undefined to start one in this process. */
  emulator: string | undefined;
  /** The emulator's application id (needed with `emulator`). */
  applicationId: string | undefined;
  /** The emulator user to sign in as. */
  user: string | undefined;
  /** The lobby everybody in the call joins. */
  lobbySecret: string;
  /** Seconds to stay in the call after someone else joined, or undefined to decide from the WAV's length. */
  seconds: number | undefined;
  /** Seconds to wait for someone else to join the call. */
  waitSeconds: number;
  /** Embedded mode: the WAV file the second participant speaks, or undefined for generated speech. */
  partnerPlay: string | undefined;
}

export const USAGE = `Usage: npm run example:voice-call -- [options]

Joins a voice call in a lobby, plays a WAV file into it and records what the others say.

Options:
  --play FILE          WAV file to play (16-bit PCM, mono or stereo); default: generated speech
  --record FILE        where to record what you hear (default voice-call-output/heard.wav)
  --emulator URL       an emulator started in another terminal (default: start one here, with a
                       second participant who talks to you); also env SDKPP_EMULATOR
  --app-id ID          that emulator's application id; also env SDKPP_APP_ID (default: asked
                       from the emulator at <URL>/emulator.json)
  --user NAME          the emulator user to sign in as (default alice; with --emulator and no
                       --user, the sample prints the sign-in URL for you to open in a browser)
  --lobby-secret S     the lobby whose call to join (default voice-call-sample)
  --seconds N          how long to stay in the call once someone else is in it
                       (default: the length of what you play, at least 5 s, plus 2 s)
  --wait N             how long to wait for someone else to join (default 120 s)
  --partner-play FILE  without --emulator: the WAV file the second participant speaks
  -h, --help           show this help
`;

function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > 3600)
    throw new UsageError(`--${name} takes a number of seconds from 0 to 3600`);
  return number;
}

/** Reads the command line; a UsageError says what is wrong, undefined means `--help` was asked for. */
export function readOptions(argv: string[], env: NodeJS.ProcessEnv): VoiceCallOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        play: { type: 'string' },
        record: { type: 'string' },
        emulator: { type: 'string' },
        'app-id': { type: 'string' },
        user: { type: 'string' },
        'lobby-secret': { type: 'string' },
        seconds: { type: 'string' },
        wait: { type: 'string' },
        'partner-play': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return undefined;
  const emulator = values.emulator ?? env.SDKPP_EMULATOR;
  if (emulator !== undefined && !/^https?:\/\/[^/]+/.test(emulator))
    throw new UsageError(`--emulator takes the emulator's http:// address, not "${emulator}"`);
  const applicationId = values['app-id'] ?? env.SDKPP_APP_ID;
  if (emulator !== undefined && values['partner-play'] !== undefined)
    throw new UsageError(
      '--partner-play is for the embedded emulator; with --emulator, others join themselves',
    );
  const lobbySecret = values['lobby-secret'] ?? 'voice-call-sample';
  if (lobbySecret.length < 1 || lobbySecret.length > 250)
    throw new UsageError('--lobby-secret takes 1 to 250 characters');
  return {
    play: values.play,
    record: values.record ?? 'voice-call-output/heard.wav',
    emulator: emulator?.replace(/\/+$/, ''),
    applicationId,
    user: values.user ?? (emulator === undefined ? 'alice' : undefined),
    lobbySecret,
    seconds: positiveNumber('seconds', values.seconds),
    waitSeconds: positiveNumber('wait', values.wait) ?? 120,
    partnerPlay: values['partner-play'],
  };
}

/**
 * The demo's command line. It uses the repository's own flag table (the one `sdkpp` uses), so `--help` and
 * "did you mean" work as they do for the CLI; a game of yours would bring its own parser.
 */
import { formatFlags, parseFlags, UsageError, type Flag } from '@sdkpp/emulator/cli';

/** What the demo's flags choose. */
export interface DemoOptions {
  /** Leave the emulator up after the tour. */
  keepAlive: boolean;
  /** Percent of the call's voice packets the emulator's voice server drops. */
  voiceLoss: number;
  /** The folder that receives what each player said and heard, as WAV files. */
  output: string;
}

const FLAGS: readonly Flag<DemoOptions>[] = [
  {
    name: 'keep-alive',
    help: 'leave the emulator up after the tour (its dashboard too); Ctrl+C stops it',
    apply: (options) => {
      options.keepAlive = true;
    },
  },
  {
    name: 'voice-loss',
    value: 'PERCENT',
    default: '0',
    help: "have the emulator's voice server drop this share (0-100) of the call's packets",
    apply: (options, value) => {
      const percent = Number(value);
      if (value.trim() === '' || !(percent >= 0 && percent <= 100)) {
        throw new UsageError('--voice-loss takes a percentage from 0 to 100');
      }
      options.voiceLoss = percent;
    },
  },
  {
    name: 'output',
    value: 'DIR',
    default: 'demo-output',
    help: 'the folder for what each player said and heard (WAV files)',
    apply: (options, value) => {
      if (value.trim() === '') throw new UsageError('--output takes a folder');
      options.output = value;
    },
  },
];

const USAGE = `Usage: npm run demo -- [options]

The one-command tour of sdkpp: starts the embedded platform emulator and plays a sample game session
(two players link, befriend, invite, meet in a lobby, chat and talk in an encrypted call).

Options:
${formatFlags(FLAGS)}`;

/**
 * The options in `args`; null after printing the help (exit 0), or the exit code 2 after printing a mistake.
 */
export function readDemoOptions(args: string[]): DemoOptions | null | number {
  const options: DemoOptions = { keepAlive: false, voiceLoss: 0, output: 'demo-output' };
  try {
    if (parseFlags(FLAGS, args, options).help) {
      process.stdout.write(USAGE);
      return null;
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`demo: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  return options;
}

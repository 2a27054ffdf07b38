import { monoToStereo, resampleMono } from './resample.js';

/**
 * The npm package that speaks: espeak-ng's command line compiled to WebAssembly, its voices inside. It is the
 * only source of speech, so the same text gives the same samples on every machine (no system espeak-ng is
 * ever run). sdkpp does not ship it (GPL-3.0-or-later, and only tests need it): `npm install espeak-ng`.
 */
const SPEECH_PACKAGE = 'espeak-ng';

/** Longer text is refused: the synthesiser runs to completion on the calling thread, so its work is bounded. */
const MAX_TEXT_LENGTH = 2000;

/** Options of {@link synthesizeSpeech}. */
export interface SpeechOptions {
  /** An espeak-ng voice, e.g. `'en-us'` (the default) or `'en+f3'`. */
  readonly voice?: string;
  /** Words per minute, 80–450 (espeak-ng's default is 175). */
  readonly wordsPerMinute?: number;
  /**
   * Test seam: the module to load instead of the `espeak-ng` package.
   * @internal
   */
  readonly synthesizerModule?: string;
}

/** Speech as the voice path carries it: 48 kHz interleaved stereo 16-bit PCM. */
export interface SpeechAudio {
  /** 48 kHz interleaved stereo samples. */
  readonly pcm: Int16Array;
  /** Duration in milliseconds. */
  readonly durationMs: number;
}

/**
 * Raised when the `espeak-ng` npm package is missing (`npm install espeak-ng`), refuses the options (an unknown
 * voice, say) or the text is longer than 2000 characters.
 */
export class SpeechSynthesisError extends Error {
  /** `'SpeechSynthesisError'`, to tell it apart from other errors when logged. */
  override readonly name = 'SpeechSynthesisError';
}

/** The samples and rate of a canonical 16-bit PCM mono WAV file (what espeak-ng writes). */
function readMonoWav(bytes: Buffer): { samples: Int16Array; rate: number } {
  if (
    bytes.length < 12 ||
    bytes.toString('ascii', 0, 4) !== 'RIFF' ||
    bytes.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    throw new SpeechSynthesisError('espeak-ng did not write a WAV file');
  }
  let offset = 12;
  let rate = 0;
  let channels = 0;
  let bits = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    // espeak-ng streams to a file and may leave the data chunk's size at 0 or too large: clamp it.
    const declared = bytes.readUInt32LE(offset + 4);
    const size = Math.min(declared === 0 ? bytes.length : declared, bytes.length - offset - 8);
    const body = offset + 8;
    if (id === 'fmt ' && size >= 16) {
      channels = bytes.readUInt16LE(body + 2);
      rate = bytes.readUInt32LE(body + 4);
      bits = bytes.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (channels !== 1 || bits !== 16 || rate <= 0) {
        throw new SpeechSynthesisError(
          `unexpected espeak-ng format: ${channels} ch, ${bits} bit, ${rate} Hz`,
        );
      }
      const count = size >> 1;
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(body + 2 * i);
      return { samples, rate };
    }
    offset = body + size + (size & 1);
  }
  throw new SpeechSynthesisError('the WAV file has no data chunk');
}

/** What the `espeak-ng` package exports: an Emscripten module factory that runs the command line once. */
type EspeakFactory = (module: {
  arguments: string[];
  print: (line: string) => void;
  printErr: (line: string) => void;
  quit: (status: number, toThrow: unknown) => never;
}) => Promise<{ FS: { readFile(path: string): Uint8Array } }>;

/** Loads the synthesiser; a missing package becomes a {@link SpeechSynthesisError} that says how to add it. */
async function loadSynthesizer(specifier: string): Promise<EspeakFactory> {
  let loaded: unknown;
  try {
    loaded = await import(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    throw new SpeechSynthesisError(
      missing
        ? `speech synthesis needs the ${specifier} npm package, which is not installed: npm install --save-dev ${specifier}`
        : `could not load ${specifier}: ${String(error)}`,
    );
  }
  const factory = (loaded as { default?: unknown }).default;
  if (typeof factory !== 'function') throw new SpeechSynthesisError(`${specifier} exports no synthesiser`);
  return factory as EspeakFactory;
}

/**
 * Speaks `text` with espeak-ng (the `espeak-ng` npm package: WebAssembly, voices included, nothing to install
 * on the system) and returns it at 48 kHz stereo, ready for a virtual microphone or the transport.
 * Deterministic: the same text and options give the same samples on every machine.
 * @throws SpeechSynthesisError when the package is not installed, the voice is unknown or the text is longer
 *   than 2000 characters.
 */
export async function synthesizeSpeech(text: string, options: SpeechOptions = {}): Promise<SpeechAudio> {
  if (text.length > MAX_TEXT_LENGTH) {
    throw new SpeechSynthesisError(
      `the text is ${text.length} characters; at most ${MAX_TEXT_LENGTH} are spoken`,
    );
  }
  const synthesize = await loadSynthesizer(options.synthesizerModule ?? SPEECH_PACKAGE);
  const file = '/speech.wav'; // in the module's own in-memory file system
  const args = [
    '-v',
    options.voice ?? 'en-us',
    '-s',
    String(options.wordsPerMinute ?? 175),
    '-w',
    file,
    '--',
    text,
  ];
  const messages: string[] = [];
  let status = 0;
  let wav: Uint8Array;
  try {
    const run = await synthesize({
      arguments: args,
      print: (line) => messages.push(line),
      printErr: (line) => messages.push(line),
      // Emscripten's default sets process.exitCode; keep the status to ourselves instead.
      quit: (code, toThrow) => {
        status = code;
        throw toThrow;
      },
    });
    if (status !== 0) throw new Error(`exit status ${status}`);
    wav = run.FS.readFile(file);
  } catch (error) {
    // espeak-ng's own message (e.g. "The specified espeak-ng voice does not exist.") says more than the exit.
    const said = messages.find((line) => line.startsWith('Error:')) ?? messages[0] ?? String(error);
    throw new SpeechSynthesisError(`speech synthesis failed: ${said}`);
  }
  const { samples, rate } = readMonoWav(Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength));
  const pcm = monoToStereo(resampleMono(samples, rate, 48000));
  return { pcm, durationMs: Math.round((pcm.length / 2 / 48000) * 1000) };
}

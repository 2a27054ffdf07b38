import { ValidationError } from '@sdkpp/protocol';
import { VOICE_FRAME_SAMPLES } from '../../media/index.js';

/** The prefix of a simulated room as the microphone: `room:<delay ms>:<gain dB>`, e.g. `room:50:-6`. */
export const ROOM_INPUT_PREFIX = 'room:';
/** The longest echo delay a room may have. */
const MAX_DELAY_MS = 500;

/** The echo path of a `room:` device: how late and how loud the speakers come back. */
export interface RoomEcho {
  delayMs: number;
  gainDb: number;
}

/** Parses `room:<delay ms>:<gain dB>`; undefined when the id is not one (0–500 ms, −60..0 dB). */
export function parseRoomId(id: string): RoomEcho | undefined {
  const match = /^room:(\d{1,3}):(-?\d{1,2}(?:\.\d+)?)$/.exec(id);
  if (!match) return undefined;
  const echo = { delayMs: Number(match[1]), gainDb: Number(match[2]) };
  return isModelled(echo) ? echo : undefined;
}

/** An echo a room can have: 0–500 ms late, −60..0 dB. */
function isModelled(echo: RoomEcho): boolean {
  return (
    Number.isInteger(echo.delayMs) &&
    echo.delayMs >= 0 &&
    echo.delayMs <= MAX_DELAY_MS &&
    echo.gainDb <= 0 &&
    echo.gainDb >= -60
  );
}

/**
 * A simulated room as the microphone: it hears what the speakers play (the audio pump hands it every played
 * frame) and gives it back `delayMs` later at `gainDb`, the way laptop speakers leak into their microphone. A
 * test device for echo cancellation, like `null` and the WAV devices: what it returns is exactly the echo, so
 * a game's tests (and this SDK's) can measure how much of it a call lets through. Add near-end speech with
 * `pushAudioInput(…, { microphone: true })`.
 */
export class RoomInput {
  readonly #gain: number;
  readonly #delay: number;
  /** What the speakers played, as a sample ring long enough for the delay plus a frame. */
  readonly #ring: Int16Array;
  #written = 0;

  constructor(echo: RoomEcho) {
    if (!isModelled(echo)) throw new ValidationError('a room echoes 0–500 ms late at −60..0 dB');
    this.#gain = 10 ** (echo.gainDb / 20);
    // Stereo samples; the pump reads before it plays within a tick, which adds one frame of its own.
    this.#delay = Math.round((echo.delayMs / 1000) * 48_000) * 2;
    this.#ring = new Int16Array(this.#delay + 4 * VOICE_FRAME_SAMPLES);
  }

  /** The speakers played `frame`. */
  hear(frame: Int16Array): void {
    for (let i = 0; i < VOICE_FRAME_SAMPLES; i++)
      this.#ring[(this.#written + i) % this.#ring.length] = Math.round((frame[i] ?? 0) * this.#gain);
    this.#written += VOICE_FRAME_SAMPLES;
  }

  /** The echo now; false while it is silent (nothing played yet, or silence played). */
  read(out: Int16Array): boolean {
    // What the room sounds like now: the frame that left the speakers `delay` before the newest one.
    const start = this.#written - this.#delay - VOICE_FRAME_SAMPLES;
    let any = false;
    for (let i = 0; i < VOICE_FRAME_SAMPLES; i++) {
      const at = start + i;
      const v =
        at < 0 || at < this.#written - this.#ring.length ? 0 : (this.#ring[at % this.#ring.length] ?? 0);
      out[i] = v;
      any ||= v !== 0;
    }
    return any;
  }

  close(): void {
    this.#written = 0;
  }
}

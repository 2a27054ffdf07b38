import type { Emulator } from '../../packages/emulator/src/index.js';
import { eventually } from '../integration/helpers.js';

/** A sine tone at 0.25 of full scale (-12 dBFS), 48 kHz interleaved stereo. */
export function tone(seconds: number, hz: number): Int16Array {
  const frames = Math.round(seconds * 48_000);
  const pcm = new Int16Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    const v = Math.round(0.25 * 32767 * Math.sin((2 * Math.PI * hz * i) / 48_000));
    pcm[2 * i] = v;
    pcm[2 * i + 1] = v;
  }
  return pcm;
}

/**
 * The amplitude of `hz` in the left channel of 48 kHz stereo PCM, relative to full scale (Goertzel over the
 * whole buffer): 0.25 for a tone that fills it at {@link tone}'s level, less for one that fills part of it.
 */
export function toneLevel(pcm: Int16Array, hz: number): number {
  const n = Math.floor(pcm.length / 2);
  if (n === 0) return 0;
  const k = 2 * Math.cos((2 * Math.PI * hz) / 48_000);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const s = (pcm[2 * i] ?? 0) / 32768 + k * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  const power = s1 * s1 + s2 * s2 - k * s1 * s2;
  return (2 * Math.sqrt(Math.max(power, 0))) / n;
}

/** The seeded guild and its voice channel "General". */
export function seededVoice(emu: Emulator): { guildId: string; voiceId: string } {
  const [guild] = emu.guilds();
  return { guildId: guild?.id ?? '', voiceId: guild?.channels.find((c) => c.type === 2)?.id ?? '' };
}

/** {@link eventually} with the check's name first and a 10 s bound, as these tests read. */
export function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  return eventually(check, timeoutMs, what);
}

import type { SoundboardSoundRecord } from '../store/types.js';

/**
 * The platform's default soundboard sounds (`GET /soundboard-default-sounds`): every guild may play them, and
 * their ids are small numbers of their own, not snowflakes. The emulator keeps their names and emoji only.
 */
export const DEFAULT_SOUNDS: readonly SoundboardSoundRecord[] = [
  ['1', 'quack', '🦆'],
  ['2', 'airhorn', '🔊'],
  ['3', 'cricket', '🦗'],
  ['4', 'golf clap', '⛳'],
  ['5', 'sad horn', '🎺'],
  ['7', 'ba dum tss', '🥁'],
].map(([id = '', name = '', emoji = '']) => ({
  id,
  name,
  volume: 1,
  emojiId: null,
  emojiName: emoji,
  userId: '0',
  createdAt: 0,
}));

/** A default sound by id. */
export function defaultSound(id: string): SoundboardSoundRecord | undefined {
  return DEFAULT_SOUNDS.find((s) => s.id === id);
}

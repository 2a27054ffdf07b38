import { FieldErrors, optionalString } from './fieldErrors.js';

/** A sound file's size limit (512 KiB, as the platform's). */
export const MAX_SOUND_BYTES = 512 * 1024;

/** A sound as a `data:` URI of an MP3 or Ogg file: the base64 bytes. */
const SOUND = /^data:audio\/(mpeg|mp3|ogg);base64,([A-Za-z0-9+/]+={0,2})$/;

/** What a soundboard sound body may set, as checked. */
export interface SoundFields {
  name?: string;
  volume?: number;
  emojiId?: string | null;
  emojiName?: string | null;
}

/**
 * Reads a Create (`creating`: `name` and `sound` required) or Modify Guild Soundboard Sound body: `name` 2–32,
 * `sound` a `data:audio/mpeg` or `data:audio/ogg` URI of at most 512 KiB (checked, not kept), `volume` 0–1,
 * and `emoji_id` (a snowflake) or `emoji_name` (a unicode emoji), or neither.
 */
export function readSoundBody(
  errors: FieldErrors,
  b: Record<string, unknown>,
  creating: boolean,
): SoundFields {
  const name = optionalString(errors, ['name'], b.name, 32, 2);
  if (creating && b.name === undefined) errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (creating) {
    const sound = typeof b.sound === 'string' ? SOUND.exec(b.sound) : null;
    if (!sound) errors.add(['sound'], 'BINARY_TYPE_INVALID', 'A data URI of an MP3 or Ogg sound.');
    else if (Buffer.byteLength(sound[2] ?? '', 'base64') > MAX_SOUND_BYTES) {
      errors.add(['sound'], 'BINARY_TYPE_MAX_SIZE', `The sound is over ${MAX_SOUND_BYTES} bytes.`);
    }
  }
  let volume: number | undefined;
  if (b.volume !== undefined && b.volume !== null) {
    if (typeof b.volume !== 'number' || !(b.volume >= 0 && b.volume <= 1)) {
      errors.add(['volume'], 'NUMBER_TYPE_MAX', 'float value should be between 0 and 1.');
    } else volume = b.volume;
  }
  let emojiId: string | null | undefined;
  if (b.emoji_id === null) emojiId = null;
  else if (b.emoji_id !== undefined) {
    if (typeof b.emoji_id === 'string' && /^[0-9]{1,20}$/.test(b.emoji_id)) emojiId = b.emoji_id;
    else errors.add(['emoji_id'], 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
  }
  const emojiName =
    b.emoji_name === null ? null : optionalString(errors, ['emoji_name'], b.emoji_name, 32, 1);
  if (typeof emojiId === 'string' && typeof emojiName === 'string') {
    errors.add(['emoji_name'], 'SOUNDBOARD_SOUND_EMOJI', 'Give emoji_id or emoji_name, not both.');
  }
  return {
    ...(name === undefined ? {} : { name }),
    ...(volume === undefined ? {} : { volume }),
    ...(emojiId === undefined ? {} : { emojiId }),
    ...(emojiName === undefined ? {} : { emojiName }),
  };
}

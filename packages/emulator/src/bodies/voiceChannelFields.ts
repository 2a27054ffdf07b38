import { isVoiceRegion } from '../platform/voiceRegions.js';
import { optionalInteger, type FieldErrors } from './fieldErrors.js';

/** The voice channel fields of a create or modify body, as the channel record names them. */
export interface VoiceChannelFields {
  userLimit?: number;
  bitrate?: number;
  rtcRegion?: string | null;
}

/**
 * Reads `user_limit` (0–99, 0 for none), `bitrate` (8000–96000: a guild without boosts) and `rtc_region`
 * (a region id of `GET /voice/regions`, or null for automatic) of a voice channel body.
 */
export function readVoiceFields(errors: FieldErrors, body: Record<string, unknown>): VoiceChannelFields {
  const userLimit = optionalInteger(errors, ['user_limit'], body.user_limit, 0, 99);
  const bitrate = optionalInteger(errors, ['bitrate'], body.bitrate, 8_000, 96_000);
  let rtcRegion: string | null | undefined;
  if (Object.hasOwn(body, 'rtc_region')) {
    const value = body.rtc_region;
    if (value === null) rtcRegion = null;
    else if (typeof value === 'string' && isVoiceRegion(value)) rtcRegion = value;
    else errors.add(['rtc_region'], 'BASE_TYPE_CHOICES', 'Value must be a voice region id or null.');
  }
  return {
    ...(userLimit === undefined ? {} : { userLimit }),
    ...(bitrate === undefined ? {} : { bitrate }),
    ...(rtcRegion === undefined ? {} : { rtcRegion }),
  };
}

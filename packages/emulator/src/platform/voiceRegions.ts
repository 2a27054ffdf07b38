/** A voice region as `GET /voice/regions` lists it. */
export interface VoiceRegion {
  id: string;
  name: string;
  /** The region closest to the client; the emulator has one voice server, so the first is. */
  optimal: boolean;
  deprecated: boolean;
  custom: boolean;
}

// The platform's public region ids. The emulator serves every region from its one voice server: a
// channel's `rtc_region` changes which region it names (and sends its members a new voice server), not
// where the media goes.
const REGIONS: readonly (readonly [id: string, name: string])[] = [
  ['us-west', 'US West'],
  ['us-east', 'US East'],
  ['us-central', 'US Central'],
  ['us-south', 'US South'],
  ['brazil', 'Brazil'],
  ['rotterdam', 'Rotterdam'],
  ['russia', 'Russia'],
  ['india', 'India'],
  ['singapore', 'Singapore'],
  ['hongkong', 'Hong Kong'],
  ['japan', 'Japan'],
  ['sydney', 'Sydney'],
  ['southafrica', 'South Africa'],
];

/** Every voice region, the first optimal. */
export function voiceRegions(): VoiceRegion[] {
  return REGIONS.map(([id, name], index) => ({
    id,
    name,
    optimal: index === 0,
    deprecated: false,
    custom: false,
  }));
}

/** Whether `id` names a voice region. */
export function isVoiceRegion(id: string): boolean {
  return REGIONS.some(([known]) => known === id);
}

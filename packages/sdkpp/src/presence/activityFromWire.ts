import { enumMember } from '../util/enumMember.js';
import { defined } from '../util/defined.js';
import {
  ActivityPartyPrivacy,
  ActivityTypes,
  StatusDisplayTypes,
  type Activity,
  type ActivityAssets,
  type ActivityButton,
  type ActivityParty,
} from './Activity.js';
import { platformsFromWire } from './activityWire.js';

type Wire = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const obj = (value: unknown): Wire | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Wire) : undefined;

/** Activity flags of a public party (reference §1.10: PARTY_PRIVACY_FRIENDS, PARTY_PRIVACY_VOICE_CHANNEL). */
const PUBLIC_PARTY_FLAGS = (1 << 6) | (1 << 7);

/**
 * Reads an activity another user has (PRESENCE_UPDATE, READY presences). The platform never sends others'
 * secrets; a public party shows in `party.privacy` or in the activity's flags. Fields of the wrong type are
 * left out rather than trusted.
 */
export function activityFromWire(wire: Wire): Activity {
  const assets = obj(wire.assets);
  const party = obj(wire.party);
  const timestamps = obj(wire.timestamps);
  const size = Array.isArray(party?.size) ? (party.size as unknown[]) : [];
  const flags = num(wire.flags) ?? 0;
  const privacy =
    enumMember(ActivityPartyPrivacy, party?.privacy) ??
    ((flags & PUBLIC_PARTY_FLAGS) !== 0 ? ActivityPartyPrivacy.Public : ActivityPartyPrivacy.Private);
  const buttons = Array.isArray(wire.buttons)
    ? wire.buttons.flatMap((b): ActivityButton[] => {
        // Others receive labels only (the URLs stay with the platform).
        if (typeof b === 'string') return [{ label: b, url: '' }];
        const button = obj(b);
        const label = str(button?.label);
        return label === undefined ? [] : [{ label, url: str(button?.url) ?? '' }];
      })
    : undefined;
  return defined<Activity>({
    type: enumMember(ActivityTypes, wire.type) ?? ActivityTypes.Playing,
    name: str(wire.name),
    applicationId: str(wire.application_id),
    parentApplicationId: str(wire.parent_application_id),
    supportedPlatforms: platformsFromWire(wire.supported_platforms),
    state: str(wire.state),
    stateUrl: str(wire.state_url),
    details: str(wire.details),
    detailsUrl: str(wire.details_url),
    statusDisplayType: enumMember(StatusDisplayTypes, wire.status_display_type),
    assets:
      assets &&
      defined<ActivityAssets>({
        largeImage: str(assets.large_image),
        largeText: str(assets.large_text),
        largeUrl: str(assets.large_url),
        smallImage: str(assets.small_image),
        smallText: str(assets.small_text),
        smallUrl: str(assets.small_url),
        inviteCoverImage: str(assets.invite_cover_image),
      }),
    party:
      party &&
      defined<ActivityParty>({
        id: str(party.id) ?? '',
        currentSize: num(size[0]) ?? 0,
        maxSize: num(size[1]) ?? 0,
        privacy,
      }),
    timestamps: timestamps && defined({ start: num(timestamps.start), end: num(timestamps.end) }),
    buttons: buttons && buttons.length > 0 ? buttons : undefined,
  });
}

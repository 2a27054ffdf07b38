import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalInteger,
  optionalName,
} from './fieldErrors.js';

/** An AutoMod action as checked: its type and the metadata fields the platform defines for it. */
export interface AutoModActionFields {
  type: 1 | 2 | 3 | 4;
  metadata: Record<string, unknown>;
}

/** A rule's settable fields (the store's rule record less its id and creator). */
export interface AutoModRuleShape {
  name: string;
  eventType: 1 | 2;
  triggerType: 1 | 6;
  keywords: string[];
  allowList: string[];
  actions: AutoModActionFields[];
  enabled: boolean;
  exemptRoles: string[];
  exemptChannels: string[];
}

/** What a rule body may set, as checked alone. */
export type AutoModFields = Partial<AutoModRuleShape>;

/** Keyword bounds (the platform's): 1000 keywords of at most 60 characters, 100 allow-list entries for KEYWORD. */
const MAX_KEYWORDS = 1000;
const MAX_KEYWORD_LENGTH = 60;
const MAX_ALLOW = 1000;

function strings(
  errors: FieldErrors,
  path: (string | number)[],
  value: unknown,
  max: number,
): string[] | undefined {
  const list = optionalArray(errors, path, value, max);
  if (!list) return undefined;
  list.forEach((k, i) => {
    if (typeof k !== 'string' || k.length === 0 || k.length > MAX_KEYWORD_LENGTH) {
      errors.add(
        [...path, i],
        'BASE_TYPE_BAD_LENGTH',
        `Must be between 1 and ${MAX_KEYWORD_LENGTH} in length.`,
      );
    }
  });
  return list.filter((k): k is string => typeof k === 'string');
}

function ids(errors: FieldErrors, path: string, value: unknown, max: number): string[] | undefined {
  const list = optionalArray(errors, [path], value, max);
  if (!list) return undefined;
  list.forEach((id, i) => {
    if (typeof id !== 'string' || !/^[0-9]{1,20}$/.test(id))
      errors.add([path, i], 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
  });
  return list.filter((id): id is string => typeof id === 'string');
}

/**
 * Reads a Create or Modify Auto Moderation Rule body's fields, each alone: `name`, `event_type` (1
 * MESSAGE_SEND, 2 MEMBER_UPDATE), `trigger_type` (1 KEYWORD and 6 MEMBER_PROFILE; the spam and preset kinds are
 * not enforced by the emulator, so refused), `trigger_metadata` (`keyword_filter`, `allow_list`; no
 * `regex_patterns`), `actions` (1–4 with their metadata), `enabled`, `exempt_roles` (≤ 20), `exempt_channels`
 * (≤ 50). The rules between them are {@link checkAutoModRule}'s.
 */
export function readAutoModBody(errors: FieldErrors, b: Record<string, unknown>): AutoModFields {
  const name = optionalName(errors, ['name'], b.name, 100);
  const eventType = optionalInteger(errors, ['event_type'], b.event_type, 1, 2) as 1 | 2 | undefined;
  let triggerType: 1 | 6 | undefined;
  if (b.trigger_type !== undefined && b.trigger_type !== null) {
    if (b.trigger_type === 1 || b.trigger_type === 6) triggerType = b.trigger_type;
    else
      errors.add(
        ['trigger_type'],
        'AUTO_MODERATION_TRIGGER_TYPE',
        'The emulator enforces KEYWORD (1) and MEMBER_PROFILE (6).',
      );
  }
  let keywords: string[] | undefined;
  let allowList: string[] | undefined;
  const meta = b.trigger_metadata;
  if (meta !== undefined && meta !== null) {
    if (!isRecord(meta))
      errors.add(['trigger_metadata'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    else {
      keywords =
        strings(errors, ['trigger_metadata', 'keyword_filter'], meta.keyword_filter, MAX_KEYWORDS) ?? [];
      allowList = strings(errors, ['trigger_metadata', 'allow_list'], meta.allow_list, MAX_ALLOW) ?? [];
      const regex = optionalArray(errors, ['trigger_metadata', 'regex_patterns'], meta.regex_patterns, 10);
      if (regex && regex.length > 0) {
        errors.add(
          ['trigger_metadata', 'regex_patterns'],
          'AUTO_MODERATION_REGEX',
          'The emulator does not run regex patterns.',
        );
      }
    }
  }
  let actions: AutoModActionFields[] | undefined;
  const list = optionalArray(errors, ['actions'], b.actions, 10);
  if (list) {
    actions = [];
    list.forEach((a, i) => {
      const type = isRecord(a) ? a.type : undefined;
      if (!isRecord(a) || (type !== 1 && type !== 2 && type !== 3 && type !== 4)) {
        errors.add(['actions', i, 'type'], 'AUTO_MODERATION_ACTION_TYPE', 'Must be 1, 2, 3 or 4.');
        return;
      }
      const metadata = isRecord(a.metadata) ? a.metadata : {};
      if (
        type === 2 &&
        (typeof metadata.channel_id !== 'string' || !/^[0-9]{1,20}$/.test(metadata.channel_id))
      ) {
        errors.add(['actions', i, 'metadata', 'channel_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      if (type === 3)
        optionalInteger(
          errors,
          ['actions', i, 'metadata', 'duration_seconds'],
          metadata.duration_seconds ?? 0,
          1,
          2_419_200,
        );
      const kept: Record<string, unknown> = {};
      if (typeof metadata.channel_id === 'string') kept.channel_id = metadata.channel_id;
      if (typeof metadata.duration_seconds === 'number') kept.duration_seconds = metadata.duration_seconds;
      if (typeof metadata.custom_message === 'string')
        kept.custom_message = metadata.custom_message.slice(0, 150);
      actions?.push({ type, metadata: kept });
    });
  }
  const enabled = optionalBoolean(errors, ['enabled'], b.enabled);
  const exemptRoles = ids(errors, 'exempt_roles', b.exempt_roles, 20);
  const exemptChannels = ids(errors, 'exempt_channels', b.exempt_channels, 50);
  return {
    ...(name === undefined ? {} : { name }),
    ...(eventType === undefined ? {} : { eventType }),
    ...(triggerType === undefined ? {} : { triggerType }),
    ...(keywords === undefined ? {} : { keywords }),
    ...(allowList === undefined ? {} : { allowList }),
    ...(actions === undefined ? {} : { actions }),
    ...(enabled === undefined ? {} : { enabled }),
    ...(exemptRoles === undefined ? {} : { exemptRoles }),
    ...(exemptChannels === undefined ? {} : { exemptChannels }),
  };
}

/**
 * The rules between a rule's fields, on the rule as it would be: MEMBER_PROFILE (6) goes with MEMBER_UPDATE
 * (2) and KEYWORD (1) with MESSAGE_SEND (1); BLOCK_MEMBER_INTERACTION (4) is only for MEMBER_PROFILE, which
 * takes it or SEND_ALERT_MESSAGE, and BLOCK_MESSAGE / TIMEOUT are only for message rules; at least one
 * action and one keyword.
 */
export function checkAutoModRule(errors: FieldErrors, r: AutoModRuleShape): void {
  const profile = r.triggerType === 6;
  if (r.eventType !== (profile ? 2 : 1)) {
    errors.add(
      ['event_type'],
      'AUTO_MODERATION_INVALID_EVENT_TYPE',
      profile ? 'MEMBER_PROFILE rules use MEMBER_UPDATE (2).' : 'KEYWORD rules use MESSAGE_SEND (1).',
    );
  }
  if (r.actions.length === 0)
    errors.add(['actions'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 10 in length.');
  r.actions.forEach((a, i) => {
    if (a.type === 4 && !profile) {
      errors.add(
        ['actions', i, 'type'],
        'AUTO_MODERATION_INVALID_ACTION_TYPE',
        'BLOCK_MEMBER_INTERACTION is only for MEMBER_PROFILE rules.',
      );
    }
    if ((a.type === 1 || a.type === 3) && profile) {
      errors.add(
        ['actions', i, 'type'],
        'AUTO_MODERATION_INVALID_ACTION_TYPE',
        'MEMBER_PROFILE rules block member interaction or alert.',
      );
    }
  });
  if (r.keywords.length === 0) {
    errors.add(['trigger_metadata', 'keyword_filter'], 'BASE_TYPE_REQUIRED', 'At least one keyword.');
  }
}

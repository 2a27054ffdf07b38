/**
 * The one schema of a saved store state (`data` of a state file, after the migrations of migrate.ts): every
 * field of every record of types.ts, with the values the emulator's code assumes, and the links between
 * records that it keeps. A state that passes it cannot make a request fail, a loop spin or a date throw later.
 */
import { createPrivateKey } from 'node:crypto';

import { z } from 'zod';

import { MAX_JSON_DEPTH } from '@sdkpp/protocol';
import { PRIVILEGED_INTENTS } from '../platform/intents.js';
import { isSnowflake } from '../snowflake.js';
import { applicationKeyProblem } from './applicationKey.js';
import { EXTERNAL_AUTH_TYPES, type StoreState } from './types.js';

/** The largest distance from 1970 that `Date` accepts, in ms (±100 000 000 days). */
export const MAX_DATE_MS = 8.64e15;

/** The shortest subscription period a SKU may have (Premium.createSku refuses shorter ones). */
export const MIN_PERIOD_MS = 60_000;

/**
 * The longest subscription period: a century. Longer ones would put a period's end, and the dates sent for
 * it, past what `Date` accepts.
 */
export const MAX_PERIOD_MS = 100 * 365 * 86_400_000;

/** How many applications a user's disclosure list may name (the emulator's bound). */
export const MAX_DISCLOSED_APPLICATIONS = 1000;
/** The longest application description Edit Current Application takes. */
export const MAX_APPLICATION_DESCRIPTION = 400;
/** How many tags an application may have. */
export const MAX_APPLICATION_TAGS = 5;
/** The longest application tag. */
export const MAX_APPLICATION_TAG = 20;
/** User installs kept (the emulator's bound: far more users than a test makes). */
export const MAX_USER_INSTALLS = 100_000;
/** Connections a user may hold (the emulator's bound; the platform publishes none). */
export const MAX_CONNECTIONS = 50;
/** The longest connection id or name. */
export const MAX_CONNECTION_FIELD = 256;
/** A connection's service name: what the platform's `type` values look like. */
export const CONNECTION_TYPE = /^[a-z0-9_-]{1,32}$/;

/** A path inside a value: object keys and array indices. */
export type ValuePath = readonly PropertyKey[];

/** A problem with a saved state: where it is and what is wrong. */
export interface StateIssue {
  path: ValuePath;
  message: string;
}

/** A field's message: "is missing" when absent, else what it must be. */
function must(text: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'is missing' : `must be ${text}`);
}

function isTime(n: number): boolean {
  return Number.isFinite(n) && Math.abs(n) <= MAX_DATE_MS;
}

const TIME = 'a time (Unix ms that Date accepts)';

const snowflake = z
  .string({ error: must('a snowflake id (a decimal string)') })
  .refine(isSnowflake, { error: 'must be a snowflake id (1–20 digits, below 2^64)' });

const time = z.number({ error: must(TIME) }).refine(isTime, { error: `must be ${TIME}` });

const bool = z.boolean({ error: must('true or false') });

function text(min = 0, max = Number.POSITIVE_INFINITY): z.ZodType<string> {
  const range =
    max === Number.POSITIVE_INFINITY
      ? min === 0
        ? 'a string'
        : `a string of at least ${min} characters`
      : `a string of ${min}–${max} characters`;
  return z
    .string({ error: must(range) })
    .refine((s) => s.length >= min && s.length <= max, { error: `must be ${range}` });
}

function pattern(regex: RegExp, what: string): z.ZodType<string> {
  return z.string({ error: must(what) }).refine((s) => regex.test(s), { error: `must be ${what}` });
}

function integer(min: number, max: number = Number.MAX_SAFE_INTEGER, what?: string): z.ZodType<number> {
  const describe =
    what ??
    (max === Number.MAX_SAFE_INTEGER
      ? min === 0
        ? 'a whole number ≥ 0'
        : `a whole number ≥ ${min}`
      : `a whole number from ${min} to ${max}`);
  return z
    .number({ error: must(describe) })
    .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, { error: `must be ${describe}` });
}

function oneOf<const T extends readonly (string | number)[]>(values: T): z.ZodType<T[number]> {
  const list = values.map((v) => JSON.stringify(v)).join(', ');
  return z.literal(values, { error: must(`one of ${list}`) });
}

/** One of `values`, for a field types.ts types as any number. */
function among(values: readonly number[], what: string): z.ZodType<number> {
  return z
    .number({ error: must(what) })
    .refine((n): boolean => values.includes(n), { error: `must be ${what}` });
}

/** A permission bitfield as the store keeps it: a decimal string (what parsePermissions reads). */
const bitfield = pattern(/^[0-9]{1,20}$/, 'a permission bitfield (a decimal string)');

/**
 * Reports every JSON value inside `value` that code reading the store could trip over: anything but plain
 * data (a BigInt, a function, a class instance, a number that is not finite), and nesting deeper than
 * `maxDepth` levels, which recursive readers (`structuredClone`, `JSON.stringify`, component lookups) cannot
 * survive. Walks with its own stack, so the check itself cannot overflow.
 */
export function plainDataProblem(
  value: unknown,
  maxDepth: number,
): { path: PropertyKey[]; message: string } | undefined {
  const stack: { value: unknown; path: PropertyKey[]; depth: number }[] = [{ value, path: [], depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: item, path, depth } = next;
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return { path, message: 'must be a finite number' };
      continue;
    }
    if (typeof item !== 'object') return { path, message: `must be JSON data, not ${typeof item}` };
    if (depth + 1 > maxDepth) return { path, message: `nests deeper than ${maxDepth} levels` };
    if (Array.isArray(item)) {
      // Backwards so that the first problem found is the first in the document.
      for (let i = item.length - 1; i >= 0; i -= 1) {
        stack.push({ value: item[i], path: [...path, i], depth: depth + 1 });
      }
      continue;
    }
    const prototype: unknown = Object.getPrototypeOf(item);
    if (prototype !== Object.prototype && prototype !== null) {
      return { path, message: 'must be a plain JSON object' };
    }
    const entries = Object.entries(item as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i] ?? [];
      // An absent optional field; JSON.stringify leaves it out.
      if (key === undefined || child === undefined) continue;
      stack.push({ value: child, path: [...path, key], depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Data the store keeps as the peer sent it and validated at the edge (embeds, components, command options, a
 * poll): any JSON, nested no deeper than a body may be.
 */
const json = z.unknown().superRefine((value, ctx) => {
  const problem = plainDataProblem(value, MAX_JSON_DEPTH);
  if (problem) ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path });
});

const jsonList = z.array(json, { error: must('an array') });

/**
 * A record (an object keyed by id, code or name). Zod passes over a `__proto__` key without a word, and an
 * own `__proto__` (which JSON.parse makes) would turn into a prototype the moment code copied the record with
 * `Object.assign`: refused by name first.
 */
function record<V extends z.ZodType>(
  key: z.ZodType<string>,
  value: V,
): z.ZodType<Record<string, z.output<V>>> {
  return z
    .unknown()
    .superRefine((input, ctx) => {
      if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
        ctx.addIssue({ code: 'custom', message: 'is not an allowed key', path: ['__proto__'] });
      }
    })
    .pipe(z.record(key, value, { error: must('an object') }));
}

/** Developer metadata and the like: string values by string keys. */
const stringMap = record(z.string(), z.string({ error: must('a string') }));

/** A table of records by their id, each record's `field` equal to its key. */
function table<V extends z.ZodType<Record<string, unknown>>>(
  key: z.ZodType<string>,
  value: V,
  field: string,
): z.ZodType<Record<string, z.output<V>>> {
  return record(key, value).superRefine((records, ctx) => {
    for (const [k, item] of Object.entries(records)) {
      if (item[field] !== k)
        ctx.addIssue({ code: 'custom', message: 'must equal its key', path: [k, field] });
    }
  });
}

const anyKey = text(1);

// RFC 3986 scheme syntax, web schemes refused: the same rule as EmulatorOptions.customSchemes.
const customScheme = pattern(/^[A-Za-z][A-Za-z0-9+.-]*$/, 'a custom URI scheme').refine(
  (s) => !/^(https?|file|javascript|data|ws|wss)$/i.test(s),
  { error: 'must be a custom URI scheme, not a web one' },
);

const base64url = (length: number): z.ZodType<string> =>
  pattern(new RegExp(`^[A-Za-z0-9_-]{${length}}$`), `${length} base64url characters`);

/** The application's Ed25519 key pair as generateApplicationKey makes it, its `x` the seed's public key. */
const applicationKey = z
  .strictObject({ kty: oneOf(['OKP']), crv: oneOf(['Ed25519']), d: base64url(43), x: base64url(43) })
  .superRefine((key, ctx) => {
    const problem = applicationKeyProblem(key);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A URL the emulator may send requests to or hand out: http: or https:. */
const webUrl = z.string({ error: must('an http: or https: URL') }).refine(
  (s) => {
    try {
      return ['http:', 'https:'].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  },
  { error: 'must be an http: or https: URL' },
);

const installParams = z.strictObject({
  scopes: z.array(text(1), { error: must('an array') }),
  permissions: bitfield,
});

const application = z.strictObject({
  id: snowflake,
  name: text(1, 100),
  clientSecret: text(1),
  botToken: text(1),
  customSchemes: z.array(customScheme, { error: must('an array') }),
  privilegedIntents: integer(0).refine((n) => (n & ~PRIVILEGED_INTENTS) === 0, {
    error: 'must hold only privileged intent bits',
  }),
  channelObfuscation: bool,
  signatureKey: applicationKey,
  description: text(0, MAX_APPLICATION_DESCRIPTION),
  icon: pattern(/^[0-9a-f]{32}$/, 'an image hash (32 hex digits)').nullable(),
  coverImage: pattern(/^[0-9a-f]{32}$/, 'an image hash (32 hex digits)').nullable(),
  tags: z
    .array(text(1, MAX_APPLICATION_TAG), { error: must('an array') })
    .refine((tags) => tags.length <= MAX_APPLICATION_TAGS, {
      error: `must hold at most ${MAX_APPLICATION_TAGS} tags`,
    }),
  customInstallUrl: webUrl.nullable(),
  roleConnectionsVerificationUrl: webUrl.nullable(),
  installParams: installParams.nullable(),
  installContexts: z.strictObject({
    guild: installParams.nullable().exactOptional(),
    user: installParams.nullable().exactOptional(),
  }),
  interactionsEndpointUrl: webUrl.nullable(),
  userInstalls: z
    .array(snowflake, { error: must('an array') })
    .max(MAX_USER_INSTALLS)
    .exactOptional(),
});

/** The ID token signing key: a P-256 private key as generateSigningJwk makes it, one node:crypto accepts. */
const signingKey: z.ZodType<Record<string, unknown>> = z
  .strictObject({
    kty: oneOf(['EC']),
    crv: oneOf(['P-256']),
    d: base64url(43),
    x: base64url(43),
    y: base64url(43),
  })
  .superRefine((jwk, ctx) => {
    try {
      createPrivateKey({ key: jwk, format: 'jwk' });
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not a usable P-256 private key' });
    }
  });

const connection = z.strictObject({
  type: pattern(CONNECTION_TYPE, 'a service name (lowercase letters, digits, "_" and "-")'),
  id: text(1, MAX_CONNECTION_FIELD),
  name: text(1, MAX_CONNECTION_FIELD),
  verified: bool,
  visibility: oneOf([0, 1]),
  friendSync: bool,
  showActivity: bool,
  twoWayLink: bool,
  revoked: bool,
});

const user = z.strictObject({
  id: snowflake,
  username: text(1, 100),
  globalName: text().nullable(),
  provisional: bool,
  bot: bool,
  banned: bool,
  restricted: bool,
  createdAt: time,
  avatar: pattern(
    /^(a_)?[0-9a-f]{32}$/,
    'an avatar hash (32 hex digits, "a_" first when animated)',
  ).nullable(),
  primaryGuildTag: text(1, 4).nullable(),
  premiumType: oneOf([0, 1, 2, 3]),
  connections: z
    .array(connection, { error: must('an array') })
    .max(MAX_CONNECTIONS)
    .exactOptional(),
  disclosedIn: z
    .array(snowflake, { error: must('an array') })
    .max(MAX_DISCLOSED_APPLICATIONS)
    .exactOptional(),
});

const scopes = z.array(z.string({ error: must('a string') }), { error: must('an array') });

const accessToken = z.strictObject({
  token: text(1),
  userId: snowflake,
  scope: text(),
  scopes,
  expiresAt: time,
  origin: oneOf(['oauth2', 'provisional', 'provisional-bot']),
  grantId: text(1),
  applicationId: snowflake.exactOptional(),
});

const refreshToken = z.strictObject({
  token: text(1),
  userId: snowflake,
  scope: text(),
  scopes,
  grantId: text(1),
  accessToken: text(1),
  openid: bool,
});

const code = z.strictObject({
  code: text(1),
  userId: snowflake,
  redirectUri: text(),
  scope: text(),
  scopes,
  codeChallenge: text().nullable(),
  nonce: text().nullable(),
  expiresAt: time,
  usedAt: time.nullable(),
  grantId: text(1),
});

const IDENTITY_PROVIDERS = [
  ...EXTERNAL_AUTH_TYPES.filter((t) => t !== 'DISCORD_BOT_ISSUED_ACCESS_TOKEN'),
  'DISCORD_BOT',
] as const;

const identity = z.strictObject({
  key: text(1),
  provider: z.enum(IDENTITY_PROVIDERS, { error: must(`one of ${IDENTITY_PROVIDERS.join(', ')}`) }),
  subject: text(),
  issuer: text().nullable(),
  displayName: text().nullable(),
  userId: snowflake,
});

function relationship(types: readonly number[]) {
  const what = `one of ${types.join(', ')}`;
  return z.strictObject({
    ownerId: snowflake,
    targetId: snowflake,
    // The game graph has no blocks: the kinds are typed alike, the values each graph holds differ.
    type: oneOf([1, 2, 3, 4]).refine((t): boolean => types.includes(t), { error: `must be ${what}` }),
    since: time,
  });
}

const idAndName = z.strictObject({ id: snowflake, name: text(1, 100) });

const richContent = z.strictObject({
  attachments: z
    .array(
      z.strictObject({
        id: snowflake,
        filename: text(1),
        size: integer(0),
        contentType: text().nullable(),
        url: text(1).nullable(),
      }),
      { error: must('an array') },
    )
    .max(10),
  embeds: jsonList,
  pollQuestion: text(1, 300).nullable(),
  stickers: z.array(idAndName, { error: must('an array') }).max(3),
  voiceMessage: bool,
  thread: idAndName.nullable(),
});

const directMessage = z.strictObject({
  id: snowflake,
  authorId: snowflake,
  recipientId: snowflake,
  content: text(),
  metadata: stringMap,
  moderationMetadata: stringMap,
  applicationId: snowflake.nullable(),
  createdAt: time,
  editedAt: time.nullable(),
  activity: z
    .strictObject({ type: oneOf([1, 5]), partyId: text(), sessionId: text(), valid: bool })
    .nullable(),
  rich: richContent.exactOptional(),
});

const lobbyMember = z.strictObject({
  userId: snowflake,
  metadata: stringMap,
  flags: integer(0),
  additionalName: text(1, 80).nullable(),
  joinedAt: time,
});

const lobby = z.strictObject({
  id: snowflake,
  createdBy: oneOf(['sdk', 'bot']),
  secret: text(1).nullable(),
  metadata: stringMap,
  members: z.array(lobbyMember, { error: must('an array') }).superRefine((members, ctx) => {
    const seen = new Set<string>();
    members.forEach((m, i) => {
      if (seen.has(m.userId))
        ctx.addIssue({ code: 'custom', message: 'is a member twice', path: [i, 'userId'] });
      seen.add(m.userId);
    });
  }),
  flags: integer(0),
  idleTimeoutSeconds: integer(5, 604_800),
  linkedChannelId: snowflake.nullable(),
  createdAt: time,
  idleSince: time.nullable(),
});

const lobbyMessage = z.strictObject({
  id: snowflake,
  lobbyId: snowflake,
  authorId: snowflake,
  content: text(),
  metadata: stringMap,
  moderationMetadata: stringMap,
  fromGame: bool,
  additionalName: text().nullable(),
  createdAt: time,
  editedAt: time.nullable(),
  rich: richContent.exactOptional(),
});

const role = z.strictObject({
  id: snowflake,
  name: text(),
  permissions: bitfield,
  position: integer(0),
  color: integer(0, 0xffffff),
  secondaryColor: integer(0, 0xffffff).nullable().exactOptional(),
  tertiaryColor: integer(0, 0xffffff).nullable().exactOptional(),
  hoist: bool,
  mentionable: bool,
  botId: snowflake.nullable(),
});

const guildMember = z.strictObject({
  roles: z.array(snowflake, { error: must('an array') }),
  nick: text().nullable(),
  joinedAt: time,
  avatar: text().nullable(),
  banner: text().nullable(),
  bio: text().nullable(),
  mute: z.boolean().exactOptional(),
  deaf: z.boolean().exactOptional(),
});

const guildEmoji = z.strictObject({
  id: snowflake,
  name: pattern(/^[A-Za-z0-9_]{2,32}$/, 'an emoji name (2–32 letters, digits or "_")'),
  animated: bool,
  userId: snowflake,
  roles: z.array(snowflake, { error: must('an array') }),
  createdAt: time,
});

const guildSticker = z.strictObject({
  id: snowflake,
  name: text(2, 30),
  description: text(0, 100).nullable(),
  tags: text(1, 200),
  formatType: oneOf([1, 2, 3, 4]),
  userId: snowflake,
  createdAt: time,
});

const soundboardSound = z.strictObject({
  id: snowflake,
  name: text(2, 32),
  volume: z
    .number({ error: must('a number') })
    .min(0)
    .max(1),
  emojiId: snowflake.nullable(),
  emojiName: text(1, 32).nullable(),
  userId: snowflake,
  createdAt: time,
});

const scheduledEvent = z.strictObject({
  id: snowflake,
  channelId: snowflake.nullable(),
  creatorId: snowflake,
  name: text(1, 100),
  description: text(0, 1000).nullable(),
  startsAt: time,
  endsAt: time.nullable(),
  entityType: oneOf([1, 2, 3]),
  status: oneOf([1, 2, 3, 4]),
  location: text(1, 100).nullable(),
  createdAt: time,
});

const autoModRule = z.strictObject({
  id: snowflake,
  name: text(1, 100),
  creatorId: snowflake,
  eventType: oneOf([1, 2]),
  triggerType: oneOf([1, 6]),
  keywords: z.array(text(1, 60), { error: must('an array') }).max(1000),
  allowList: z.array(text(1, 60), { error: must('an array') }).max(1000),
  actions: z
    .array(z.strictObject({ type: oneOf([1, 2, 3, 4]), metadata: z.record(z.string(), z.unknown()) }), {
      error: must('an array'),
    })
    .max(10),
  enabled: bool,
  exemptRoles: z.array(snowflake, { error: must('an array') }).max(20),
  exemptChannels: z.array(snowflake, { error: must('an array') }).max(50),
});

const guild = z.strictObject({
  id: snowflake,
  name: text(),
  icon: pattern(/^[0-9a-f]{32}$/, 'an icon hash').exactOptional(),
  description: text(0, 120).exactOptional(),
  ownerId: snowflake,
  members: record(snowflake, guildMember),
  roles: table(snowflake, role, 'id'),
  createdAt: time,
  // Absent until the first ban. A ban may name a user who never joined, or one since merged away (the guild
  // drops those when it next reads its bans), so no link to users is required.
  bans: record(snowflake, z.strictObject({ reason: text(0, 512).nullable() })).exactOptional(),
  features: z
    .array(pattern(/^[A-Z0-9_]{1,64}$/, 'a guild feature name'), { error: must('an array') })
    .max(64)
    .exactOptional(),
  emojis: table(snowflake, guildEmoji, 'id').exactOptional(),
  stickers: table(snowflake, guildSticker, 'id').exactOptional(),
  soundboardSounds: table(snowflake, soundboardSound, 'id').exactOptional(),
  scheduledEvents: table(snowflake, scheduledEvent, 'id').exactOptional(),
  autoModRules: table(snowflake, autoModRule, 'id').exactOptional(),
});

const overwrite = z.strictObject({
  id: snowflake,
  type: oneOf([0, 1]),
  allow: bitfield,
  deny: bitfield,
});

const channel = z.strictObject({
  id: snowflake,
  guildId: snowflake,
  name: text(),
  type: among([0, 2, 4], '0 (text), 2 (voice) or 4 (category)'),
  position: integer(0),
  parentId: snowflake.nullable(),
  overwrites: z.array(overwrite, { error: must('an array') }),
  topic: text(0, 1024).nullable().exactOptional(),
  nsfw: bool.exactOptional(),
  rateLimitPerUser: integer(0, 21_600).exactOptional(),
  userLimit: integer(0, 99).exactOptional(),
  bitrate: integer(8_000, 96_000).exactOptional(),
  rtcRegion: text().nullable().exactOptional(),
});

const attachment = z.strictObject({
  id: snowflake,
  filename: text(1),
  size: integer(0),
  contentType: text().nullable(),
  description: text().nullable(),
  spoiler: bool,
});

const channelMessage = z.strictObject({
  id: snowflake,
  channelId: snowflake,
  authorId: snowflake,
  content: text(),
  fromLobbyId: snowflake.nullable(),
  createdAt: time,
  editedAt: time.nullable().exactOptional(),
  embeds: jsonList.exactOptional(),
  attachments: z.array(attachment, { error: must('an array') }).exactOptional(),
  components: jsonList.exactOptional(),
  flags: integer(0).exactOptional(),
  nonce: text().nullable().exactOptional(),
  pinnedAt: time.nullable().exactOptional(),
  reference: z
    .strictObject({ type: oneOf([0, 1]), messageId: snowflake, channelId: snowflake, guildId: snowflake })
    .nullable()
    .exactOptional(),
  snapshot: z
    .strictObject({
      content: text(),
      embeds: jsonList,
      attachments: z.array(attachment, { error: must('an array') }),
      flags: integer(0),
      createdAt: time,
      editedAt: time.nullable(),
    })
    .nullable()
    .exactOptional(),
  mentions: z.array(snowflake, { error: must('an array') }).exactOptional(),
  mentionRoles: z.array(snowflake, { error: must('an array') }).exactOptional(),
  interaction: z
    .strictObject({
      id: snowflake,
      type: integer(1, 255),
      name: text(),
      userId: snowflake,
      owners: stringMap,
      originalResponseMessageId: snowflake.nullable(),
    })
    .nullable()
    .exactOptional(),
  poll: json.exactOptional(),
  stickers: z
    .array(idAndName, { error: must('an array') })
    .max(3)
    .exactOptional(),
  thread: idAndName.nullable().exactOptional(),
});

/** Never expires: what ChannelInvites stores for a guild invite with `max_age` 0. */
const NEVER = Number.MAX_SAFE_INTEGER;

const channelInvite = z.strictObject({
  code: pattern(/^[A-Za-z0-9_-]{1,32}$/, 'an invite code (1–32 letters, digits, "_" or "-")'),
  guildId: snowflake,
  channelId: snowflake,
  lobbyId: snowflake.nullable(),
  forUserId: snowflake.nullable(),
  createdAt: time,
  expiresAt: z
    .number({ error: must(`${TIME}, or ${NEVER} for never`) })
    .refine((n) => n === NEVER || isTime(n), { error: `must be ${TIME}, or ${NEVER} for never` }),
  usedAt: time.nullable(),
  maxUses: integer(0).exactOptional(),
  uses: integer(0).exactOptional(),
  maxAgeSeconds: integer(0).exactOptional(),
  temporary: bool.exactOptional(),
  roleIds: z.array(snowflake, { error: must('an array') }).exactOptional(),
  targetUserIds: z
    .array(snowflake, { error: must('an array') })
    .nullable()
    .exactOptional(),
  inviterId: snowflake.nullable().exactOptional(),
});

const command = z.strictObject({
  id: snowflake,
  guildId: snowflake.nullable(),
  type: oneOf([1, 2, 3, 4]),
  name: text(1, 32),
  description: text(0, 100),
  options: jsonList,
  defaultMemberPermissions: bitfield.nullable(),
  integrationTypes: z.array(among([0, 1], '0 or 1'), { error: must('an array') }),
  contexts: z.array(among([0, 1, 2], '0, 1 or 2'), { error: must('an array') }),
  nsfw: bool,
  handler: oneOf([1, 2]).nullable(),
  version: snowflake,
});

const appEmoji = z.strictObject({
  id: snowflake,
  name: pattern(/^[A-Za-z0-9_]{2,32}$/, 'an emoji name (2–32 letters, digits or "_")'),
  animated: bool,
  createdAt: time,
});

const periodMs = z.number({ error: must('a positive integer') }).superRefine((n, ctx) => {
  if (!Number.isSafeInteger(n) || n <= 0)
    ctx.addIssue({ code: 'custom', message: 'must be a positive integer' });
  else if (n < MIN_PERIOD_MS) {
    ctx.addIssue({ code: 'custom', message: `must be at least ${MIN_PERIOD_MS} (one minute)` });
  } else if (n > MAX_PERIOD_MS) {
    ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_PERIOD_MS} (a century)` });
  }
});

const sku = z
  .strictObject({
    id: snowflake,
    type: oneOf([2, 3, 5]),
    name: text(1, 100),
    slug: text(),
    flags: integer(0),
    periodMs: periodMs.nullable(),
    price: z
      .strictObject({ amount: integer(0), currency: pattern(/^[a-z]{3}$/, 'a 3-letter currency code') })
      .exactOptional(),
  })
  .superRefine((s, ctx) => {
    // Premium renews by the period of subscription SKUs; other SKUs have none.
    if ((s.type === 5) !== (s.periodMs !== null)) {
      ctx.addIssue({
        code: 'custom',
        message:
          s.type === 5
            ? 'must be set for a subscription SKU'
            : 'must be null for a SKU that is not a subscription',
        path: ['periodMs'],
      });
    }
  });

const entitlement = z.strictObject({
  id: snowflake,
  skuId: snowflake,
  userId: snowflake.nullable(),
  guildId: snowflake.nullable(),
  type: integer(1, 8),
  startsAt: time.nullable(),
  endsAt: time.nullable(),
  consumed: bool,
  deleted: bool,
  subscriptionId: snowflake.nullable(),
});

const ids = z.array(snowflake, { error: must('an array') });

const subscription = z.strictObject({
  id: snowflake,
  userId: snowflake,
  skuIds: ids,
  entitlementIds: ids,
  renewalSkuIds: ids,
  currentPeriodStart: time,
  currentPeriodEnd: time,
  status: oneOf([0, 1, 2]),
  canceledAt: time.nullable(),
});

/** The keys relationships are stored under: `${ownerId}:${targetId}`. */
function keyedRelationships(types: readonly number[]) {
  return record(anyKey, relationship(types)).superRefine((records, ctx) => {
    for (const [k, r] of Object.entries(records)) {
      if (k !== `${r.ownerId}:${r.targetId}`)
        ctx.addIssue({ code: 'custom', message: 'must be "ownerId:targetId" of its record', path: [k] });
    }
  });
}

/**
 * The links between records that the emulator's code follows without checking, and that it keeps true
 * itself: a broken one would surface later as a 500, a GUILD_CREATE that crashes a client, or an entitlement
 * of nothing. Links it checks on every use (a user deleted by a merge, a channel an invite pointed to) are
 * not required.
 */
function checkLinks(state: StoreState, add: (path: PropertyKey[], message: string) => void): void {
  const bot = Object.hasOwn(state.users, state.application.id)
    ? state.users[state.application.id]
    : undefined;
  if (!bot) add(['users'], `lacks the application's bot user ${state.application.id}`);
  else if (!bot.bot) add(['users', bot.id, 'bot'], "must be true for the application's bot user");

  const usernames = new Map<string, string>();
  for (const u of Object.values(state.users)) {
    const other = usernames.get(u.username);
    if (other !== undefined) add(['users', u.id, 'username'], `is also user ${other}'s`);
    usernames.set(u.username, u.id);
  }

  for (const g of Object.values(state.guilds)) {
    if (!Object.hasOwn(g.members, g.ownerId)) add(['guilds', g.id, 'ownerId'], 'must be one of its members');
    if (!Object.hasOwn(g.roles, g.id))
      add(['guilds', g.id, 'roles'], 'lacks the @everyone role (the guild id)');
    for (const [userId, member] of Object.entries(g.members)) {
      member.roles.forEach((roleId, i) => {
        if (roleId === g.id || !Object.hasOwn(g.roles, roleId)) {
          add(
            ['guilds', g.id, 'members', userId, 'roles', i],
            'must be a role of the guild other than @everyone',
          );
        }
      });
    }
  }

  const channels = state.channels;
  for (const c of Object.values(channels)) {
    if (!Object.hasOwn(state.guilds, c.guildId)) add(['channels', c.id, 'guildId'], 'must be a saved guild');
    if (c.parentId !== null) {
      const parent = Object.hasOwn(channels, c.parentId) ? channels[c.parentId] : undefined;
      if (parent?.type !== 4 || parent.guildId !== c.guildId || c.type === 4) {
        add(
          ['channels', c.id, 'parentId'],
          'must be a category of the same guild (and the channel not a category)',
        );
      }
    }
  }
  for (const m of Object.values(state.channelMessages)) {
    if (!Object.hasOwn(channels, m.channelId))
      add(['channelMessages', m.id, 'channelId'], 'must be a saved channel');
  }
  for (const invite of Object.values(state.channelInvites)) {
    if (!Object.hasOwn(state.guilds, invite.guildId)) {
      add(['channelInvites', invite.code, 'guildId'], 'must be a saved guild');
    }
    if (invite.lobbyId !== null && invite.expiresAt === NEVER) {
      add(['channelInvites', invite.code, 'expiresAt'], 'must be a time: lobby invites expire');
    }
  }
  for (const m of Object.values(state.lobbyMessages)) {
    if (!Object.hasOwn(state.lobbies, m.lobbyId))
      add(['lobbyMessages', m.id, 'lobbyId'], 'must be a saved lobby');
  }
  for (const c of Object.values(state.commands)) {
    if (c.guildId !== null && !Object.hasOwn(state.guilds, c.guildId)) {
      add(['commands', c.id, 'guildId'], 'must be a saved guild or null');
    }
  }

  const { skus, entitlements, subscriptions } = state;
  for (const e of Object.values(entitlements)) {
    if (!Object.hasOwn(skus, e.skuId)) add(['entitlements', e.id, 'skuId'], 'must be a saved SKU');
    if (e.subscriptionId !== null && !Object.hasOwn(subscriptions, e.subscriptionId)) {
      add(['entitlements', e.id, 'subscriptionId'], 'must be a saved subscription or null');
    }
  }
  for (const s of Object.values(subscriptions)) {
    for (const field of ['skuIds', 'renewalSkuIds'] as const) {
      s[field].forEach((id, i) => {
        if (!Object.hasOwn(skus, id)) add(['subscriptions', s.id, field, i], 'must be a saved SKU');
      });
    }
    s.entitlementIds.forEach((id, i) => {
      if (!Object.hasOwn(entitlements, id)) {
        add(['subscriptions', s.id, 'entitlementIds', i], 'must be a saved entitlement');
      }
    });
  }
}

/** The schema of {@link StoreState}. */
export const storeStateSchema = z
  .strictObject({
    version: oneOf([2]),
    application,
    signingKey,
    users: table(snowflake, user, 'id'),
    accessTokens: table(anyKey, accessToken, 'token'),
    refreshTokens: table(anyKey, refreshToken, 'token'),
    codes: table(anyKey, code, 'code'),
    identities: table(anyKey, identity, 'key').superRefine((records, ctx) => {
      for (const [k, i] of Object.entries(records)) {
        if (k !== `${i.provider}:${i.subject}`)
          ctx.addIssue({ code: 'custom', message: 'must be "provider:subject"', path: [k, 'key'] });
      }
    }),
    relationships: keyedRelationships([1, 2, 3, 4]),
    gameRelationships: keyedRelationships([1, 3, 4]),
    messages: table(snowflake, directMessage, 'id'),
    lobbies: table(snowflake, lobby, 'id'),
    lobbyMessages: table(snowflake, lobbyMessage, 'id'),
    guilds: table(snowflake, guild, 'id'),
    channels: table(snowflake, channel, 'id'),
    channelMessages: table(snowflake, channelMessage, 'id'),
    channelInvites: table(anyKey, channelInvite, 'code'),
    commands: table(snowflake, command, 'id'),
    appEmojis: table(snowflake, appEmoji, 'id'),
    skus: table(snowflake, sku, 'id'),
    entitlements: table(snowflake, entitlement, 'id'),
    subscriptions: table(snowflake, subscription, 'id'),
  })
  .superRefine((state, ctx) => {
    checkLinks(state, (path, message) => {
      ctx.addIssue({ code: 'custom', message, path });
    });
  });

// The schema mirrors types.ts: what it accepts is a StoreState, and a StoreState is what it describes.
type Mirror<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _mirrorsStoreState: Mirror<z.output<typeof storeStateSchema>, StoreState> = true;

/** Messages for zod's own issues, in the words of the rest of the schema. */
const errorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type')
    return issue.input === undefined
      ? 'is missing'
      : `must be ${issue.expected === 'object' || issue.expected === 'record' ? 'an object' : `a ${issue.expected}`}`;
  if (issue.code === 'unrecognized_keys') {
    return `has unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  }
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0]?.message;
    return `is not a valid key${inner === undefined ? '' : `: it ${inner}`}`;
  }
  return undefined;
};

/**
 * Checks `data` (a state's `data` after migration) against {@link storeStateSchema}: the state, typed, or
 * every problem found, each with its path from `data`.
 */
export function checkStoreState(data: unknown): { state: StoreState } | { issues: StateIssue[] } {
  const result = storeStateSchema.safeParse(data, { error: errorMap });
  if (result.success) return { state: result.data };
  return { issues: result.error.issues.map((issue) => ({ path: issue.path, message: issue.message })) };
}

/** A path as JavaScript would reach it: `skus["1234"].periodMs`, `members[0].userId`. */
export function formatPath(path: ValuePath, root = ''): string {
  let out = root;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key))
      out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** How many problems a message lists before it only counts the rest. */
const ISSUES_SHOWN = 3;

/** The problems of a state in one line: the first few with their paths from `root`, then how many more. */
export function describeIssues(issues: readonly StateIssue[], root: string): string {
  const shown = issues.slice(0, ISSUES_SHOWN).map((i) => `${formatPath(i.path, root)}: ${i.message}`);
  const more = issues.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`;
}

import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalString,
  requireObjectBody,
} from '../bodies/fieldErrors.js';
import { wireEmoji } from '../bot/resourceWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../platform/errors.js';
import type { GuildEmojiRecord, GuildRecord } from '../store/types.js';
import { IMAGE, MAX_IMAGE_BYTES, NAME } from './appEmojis.js';
import { jsonReply, noContentReply } from './replies.js';
import {
  EXPRESSION_BITS,
  guildResource,
  requireCreate,
  requireEdit,
  resourceGuild,
  seesCreator,
} from './resourceAccess.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Static and animated emoji per guild, each (the platform's limits for a guild without boosts). */
export const MAX_GUILD_EMOJIS = 50;

/**
 * A guild's custom emoji: list, get, create (a `data:` image of at most 256 KiB; 50 static and 50 animated),
 * modify (name, roles) and delete. Making one needs CREATE_GUILD_EXPRESSIONS; changing or deleting another's
 * needs MANAGE_GUILD_EXPRESSIONS (see resourceAccess.ts). Each change sends GUILD_EMOJIS_UPDATE.
 */
export function guildEmojiRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const resources = guilds.resources;
  const view = (guild: GuildRecord, e: GuildEmojiRecord): Record<string, unknown> =>
    wireEmoji(e, seesCreator(ctx, guild, EXPRESSION_BITS) ? store.user(e.userId) : undefined);
  const one = (req: RouteRequest) => guildResource(ctx, req, 'emojis', 'emoji_id', 'Emoji');
  const readRoles = (errors: FieldErrors, guild: GuildRecord, value: unknown): string[] | undefined => {
    const roles = optionalArray(errors, ['roles'], value, 250);
    if (!roles) return undefined;
    roles.forEach((id, i) => {
      if (typeof id !== 'string' || id === guild.id || !Object.hasOwn(guild.roles, id)) {
        errors.add(['roles', i], 'GUILD_ROLE_INVALID', 'Not a role of this guild.');
      }
    });
    return roles.filter((id): id is string => typeof id === 'string');
  };
  const readName = (errors: FieldErrors, value: unknown, required: boolean): string | undefined => {
    const name = optionalString(errors, ['name'], value, 32, 2);
    if (name === undefined && required && value === undefined) {
      errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
    } else if (name !== undefined && !NAME.test(name)) {
      errors.add(['name'], 'STRING_TYPE_REGEX', 'Letters, digits and underscores only.');
    }
    return name;
  };
  const base = '/guilds/:guild_id/emojis';
  return [
    apiRoute('GET', base, (req) => {
      const guild = resourceGuild(ctx, req);
      return jsonReply(
        200,
        resources.list(guild.id, 'emojis').map((e) => view(guild, e)),
      );
    }),
    apiRoute('GET', `${base}/:emoji_id`, (req) => {
      const { guild, record: emoji } = one(req);
      return jsonReply(200, view(guild, emoji));
    }),
    apiRoute(
      'POST',
      base,
      async (req) => {
        const guild = resourceGuild(ctx, req);
        requireCreate(ctx, guild, EXPRESSION_BITS);
        const b = requireObjectBody(await req.json());
        const errors = new FieldErrors();
        const name = readName(errors, b.name, true);
        const roles = readRoles(errors, guild, b.roles);
        const image = typeof b.image === 'string' ? IMAGE.exec(b.image) : null;
        if (!image) {
          errors.add(['image'], 'BINARY_TYPE_INVALID', 'A data URI of a png, jpeg, gif, webp or avif image.');
        } else if (Buffer.byteLength(image[2] ?? '', 'base64') > MAX_IMAGE_BYTES) {
          errors.add(['image'], 'BINARY_TYPE_MAX_SIZE', `The image is over ${MAX_IMAGE_BYTES} bytes.`);
        }
        errors.finish();
        // A GIF labelled otherwise (discord.js calls every Buffer image/jpg) is still animated.
        const animated =
          image?.[1] === 'gif' ||
          Buffer.from((image?.[2] ?? '').slice(0, 8), 'base64')
            .subarray(0, 4)
            .toString('latin1') === 'GIF8';
        if (
          resources.list(guild.id, 'emojis').filter((e) => e.animated === animated).length >= MAX_GUILD_EMOJIS
        ) {
          throw animated
            ? new ApiError(400, 30018, `Maximum number of animated emojis reached (${MAX_GUILD_EMOJIS})`)
            : new ApiError(400, 30008, `Maximum number of emojis reached (${MAX_GUILD_EMOJIS})`);
        }
        const record = resources.add(guild.id, 'emojis', {
          id: store.nextId(),
          name: name ?? '',
          animated,
          userId: store.state.application.id,
          roles: roles ?? [],
          createdAt: store.now(),
        });
        return jsonReply(201, view(guild, record));
      },
      // The image arrives base64 in JSON: a third larger than its 256 KiB.
      { maxBodyBytes: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4096 },
    ),
    apiRoute('PATCH', `${base}/:emoji_id`, async (req) => {
      const { guild, record: emoji } = one(req);
      requireEdit(ctx, guild, emoji.userId, EXPRESSION_BITS);
      const body = await req.json();
      const b = isRecord(body) ? body : {};
      const errors = new FieldErrors();
      const name = readName(errors, b.name, false);
      const roles = b.roles === null ? [] : readRoles(errors, guild, b.roles);
      errors.finish();
      resources.update(guild.id, 'emojis', emoji, {
        ...(name === undefined ? {} : { name }),
        ...(roles === undefined ? {} : { roles }),
      });
      return jsonReply(200, view(guild, emoji));
    }),
    apiRoute('DELETE', `${base}/:emoji_id`, (req) => {
      const { guild, record: emoji } = one(req);
      requireEdit(ctx, guild, emoji.userId, EXPRESSION_BITS);
      resources.delete(guild.id, 'emojis', emoji.id);
      return noContentReply();
    }),
  ];
}

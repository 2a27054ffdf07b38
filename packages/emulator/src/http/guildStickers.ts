import { FieldErrors, isRecord, optionalString } from '../bodies/fieldErrors.js';
import { wireSticker } from '../bot/resourceWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../platform/errors.js';
import type { GuildRecord, GuildStickerRecord } from '../store/types.js';
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

/** Stickers per guild (the platform's limit for a guild without boosts). */
export const MAX_GUILD_STICKERS = 5;
/** A sticker file's size limit (512 KiB, as the platform's). */
export const MAX_STICKER_BYTES = 512 * 1024;

/** The sticker format of a file by its first bytes: 1 PNG, 2 APNG (a PNG with an `acTL` chunk), 4 GIF. */
function formatOf(bytes: Buffer): 1 | 2 | 4 | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return bytes.includes('acTL') ? 2 : 1;
  }
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 4;
  return undefined;
}

/**
 * A guild's stickers: list, get, create (multipart: `name` 2–30, `description` 0–100, `tags` 1–200, and a
 * PNG, APNG or GIF `file` of at most 512 KiB; 5 per guild), modify (name, description, tags) and delete.
 * Permissions as for emoji (resourceAccess.ts). Each change sends GUILD_STICKERS_UPDATE.
 */
export function guildStickerRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const resources = guilds.resources;
  const view = (guild: GuildRecord, s: GuildStickerRecord): Record<string, unknown> =>
    wireSticker(s, guild.id, seesCreator(ctx, guild, EXPRESSION_BITS) ? store.user(s.userId) : undefined);
  const one = (req: RouteRequest) => guildResource(ctx, req, 'stickers', 'sticker_id', 'Sticker');
  /** The text fields; `required` for a create, where name and tags must be there. */
  const readFields = (
    errors: FieldErrors,
    b: Record<string, unknown>,
    required: boolean,
  ): Partial<Pick<GuildStickerRecord, 'name' | 'description' | 'tags'>> => {
    const name = optionalString(errors, ['name'], b.name, 30, 2);
    const description = optionalString(errors, ['description'], b.description, 100);
    const tags = optionalString(errors, ['tags'], b.tags, 200, 1);
    if (required) {
      if (b.name === undefined) errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (b.tags === undefined) errors.add(['tags'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    return {
      ...(name === undefined ? {} : { name }),
      ...(description === undefined
        ? b.description === null
          ? { description: null }
          : {}
        : { description }),
      ...(tags === undefined ? {} : { tags }),
    };
  };
  const base = '/guilds/:guild_id/stickers';
  return [
    apiRoute('GET', base, (req) => {
      const guild = resourceGuild(ctx, req);
      return jsonReply(
        200,
        resources.list(guild.id, 'stickers').map((s) => view(guild, s)),
      );
    }),
    apiRoute('GET', `${base}/:sticker_id`, (req) => {
      const { guild, record: sticker } = one(req);
      return jsonReply(200, view(guild, sticker));
    }),
    apiRoute('POST', base, async (req) => {
      const guild = resourceGuild(ctx, req);
      requireCreate(ctx, guild, EXPRESSION_BITS);
      if (!req.isMultipart()) {
        throw new ApiError(400, 50035, 'Invalid Form Body', {
          errors: { file: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } },
        });
      }
      const form = await req.multipart({
        fileBytes: MAX_STICKER_BYTES,
        files: 1,
        fieldBytes: 1024,
        fields: 8,
      });
      const errors = new FieldErrors();
      const fields = readFields(errors, Object.fromEntries(form.fields), true);
      const file = form.files.find((f) => f.field === 'file');
      const format = file && !file.truncated ? formatOf(file.bytes) : undefined;
      if (!file) errors.add(['file'], 'BASE_TYPE_REQUIRED', 'This field is required');
      else if (file.truncated) {
        errors.add(['file'], 'BINARY_TYPE_MAX_SIZE', `The file is over ${MAX_STICKER_BYTES} bytes.`);
      } else if (format === undefined) {
        errors.add(['file'], 'STICKER_FILE_INVALID', 'A PNG, APNG or GIF file.');
      }
      errors.finish();
      if (resources.list(guild.id, 'stickers').length >= MAX_GUILD_STICKERS) {
        throw new ApiError(400, 30039, `Maximum number of stickers reached (${MAX_GUILD_STICKERS})`);
      }
      const record = resources.add(guild.id, 'stickers', {
        id: store.nextId(),
        name: fields.name ?? '',
        description: fields.description ?? null,
        tags: fields.tags ?? '',
        formatType: format ?? 1,
        userId: store.state.application.id,
        createdAt: store.now(),
      });
      return jsonReply(201, view(guild, record));
    }),
    apiRoute('PATCH', `${base}/:sticker_id`, async (req) => {
      const { guild, record: sticker } = one(req);
      requireEdit(ctx, guild, sticker.userId, EXPRESSION_BITS);
      const body = await req.json();
      const errors = new FieldErrors();
      const change = readFields(errors, isRecord(body) ? body : {}, false);
      errors.finish();
      resources.update(guild.id, 'stickers', sticker, change);
      return jsonReply(200, view(guild, sticker));
    }),
    apiRoute('DELETE', `${base}/:sticker_id`, (req) => {
      const { guild, record: sticker } = one(req);
      requireEdit(ctx, guild, sticker.userId, EXPRESSION_BITS);
      resources.delete(guild.id, 'stickers', sticker.id);
      return noContentReply();
    }),
  ];
}

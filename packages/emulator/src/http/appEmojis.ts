import type { EmulatorContext } from '../context.js';
import { compareIds } from '../snowflake.js';
import type { AppEmojiRecord } from '../store/types.js';
import { ApiError, unknown } from '../platform/errors.js';
import { requireOwnApplication } from './botAccess.js';
import { FieldErrors, isRecord, optionalString } from '../bodies/fieldErrors.js';
import { jsonReply, noContentReply } from './replies.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Application emoji per application (the document's limit). */
export const MAX_APP_EMOJIS = 2000;
/** An emoji image's size limit (256 KiB, as the platform's); guild emoji share it. */
export const MAX_IMAGE_BYTES = 256 * 1024;
/** An emoji name: 2–32 letters, digits and underscores. */
export const NAME = /^[A-Za-z0-9_]{2,32}$/;
/**
 * An emoji image as a `data:` URI: the format (`gif` is animated) and the base64 bytes. `image/jpg` is there
 * because discord.js labels every Buffer so (DataResolver.resolveBase64), and the platform takes it.
 */
export const IMAGE = /^data:image\/(png|jpeg|jpg|gif|webp|avif);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * Application emoji, managed with the bot token: list (`{items}`), get, create (a `data:` image of at most
 * 256 KiB, a unique name; 2000 per application), rename and delete. The emulator keeps the name and whether
 * it is animated, not the picture.
 */
export function appEmojiRoutes(ctx: EmulatorContext): Route[] {
  const { store } = ctx;
  const emojis = (): Record<string, AppEmojiRecord> => store.state.appEmojis;
  const wire = (e: AppEmojiRecord): Record<string, unknown> => {
    const bot = store.botUser();
    return {
      id: e.id,
      name: e.name,
      roles: [],
      user: { id: bot.id, username: bot.username, bot: true },
      require_colons: true,
      managed: false,
      animated: e.animated,
      available: true,
    };
  };
  const app = (req: RouteRequest): void => {
    requireOwnApplication(ctx, req);
  };
  const one = (req: RouteRequest): AppEmojiRecord => {
    app(req);
    const id = req.params.emoji_id ?? '';
    const found = Object.hasOwn(emojis(), id) ? emojis()[id] : undefined;
    if (!found) throw unknown('Emoji');
    return found;
  };
  const checkName = (
    errors: FieldErrors,
    value: unknown,
    required: boolean,
    self?: string,
  ): string | undefined => {
    const name = optionalString(errors, ['name'], value, 32, 2);
    if (name === undefined) {
      if (required && value === undefined)
        errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
      return undefined;
    }
    if (!NAME.test(name)) errors.add(['name'], 'STRING_TYPE_REGEX', 'Letters, digits and underscores only.');
    else if (Object.values(emojis()).some((e) => e.name === name && e.id !== self)) {
      errors.add(['name'], 'APPLICATION_EMOJI_NAME_ALREADY_TAKEN', 'Application emoji name already taken');
    }
    return name;
  };
  const base = '/applications/:application_id/emojis';
  return [
    apiRoute('GET', base, (req) => {
      app(req);
      return jsonReply(200, {
        items: Object.values(emojis())
          .sort((a, b) => compareIds(a.id, b.id))
          .map(wire),
      });
    }),
    apiRoute('GET', `${base}/:emoji_id`, (req) => jsonReply(200, wire(one(req)))),
    apiRoute(
      'POST',
      base,
      async (req) => {
        app(req);
        const body = await req.json();
        const errors = new FieldErrors();
        const b = isRecord(body) ? body : {};
        const name = checkName(errors, b.name, true);
        const image = typeof b.image === 'string' ? IMAGE.exec(b.image) : null;
        if (!image)
          errors.add(['image'], 'BINARY_TYPE_INVALID', 'A data URI of a png, jpeg, gif, webp or avif image.');
        else if (Buffer.byteLength(image[2] ?? '', 'base64') > MAX_IMAGE_BYTES) {
          errors.add(['image'], 'BINARY_TYPE_MAX_SIZE', `The image is over ${MAX_IMAGE_BYTES} bytes.`);
        }
        errors.finish();
        if (Object.keys(emojis()).length >= MAX_APP_EMOJIS) {
          throw new ApiError(400, 30008, `Maximum number of emojis reached (${MAX_APP_EMOJIS})`);
        }
        const record: AppEmojiRecord = {
          id: store.nextId(),
          name: name ?? '',
          animated: image?.[1] === 'gif',
          createdAt: store.now(),
        };
        emojis()[record.id] = record;
        ctx.log.line('emoji', `application emoji :${record.name}: created`);
        return jsonReply(201, wire(record));
      },
      // The image arrives base64 in JSON: a third larger than its 256 KiB.
      { maxBodyBytes: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4096 },
    ),
    apiRoute('PATCH', `${base}/:emoji_id`, async (req) => {
      const record = one(req);
      const body = await req.json();
      const errors = new FieldErrors();
      const name = checkName(errors, isRecord(body) ? body.name : undefined, true, record.id);
      errors.finish();
      if (name !== undefined) record.name = name;
      return jsonReply(200, wire(record));
    }),
    apiRoute('DELETE', `${base}/:emoji_id`, (req) => {
      const record = one(req);
      Reflect.deleteProperty(emojis(), record.id);
      return noContentReply();
    }),
  ];
}

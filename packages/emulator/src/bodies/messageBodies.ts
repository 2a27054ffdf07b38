import { checkComponents, IS_COMPONENTS_V2 } from './componentBodies.js';
import { checkEmbeds } from './embedBodies.js';
import {
  FieldErrors,
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalInteger,
  optionalString,
  requireObjectBody,
} from './fieldErrors.js';

/** A channel message's content limit, in characters (the platform's). */
export const MAX_CHANNEL_MESSAGE = 2000;
/** The default per-attachment upload limit (the document: 10 MiB since 2025-01-16, checked per attachment). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** Attachments per message. */
export const MAX_ATTACHMENTS = 10;

/** Message flags a message may be sent with: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2. */
const SENDABLE_FLAGS = (1 << 2) | (1 << 12) | IS_COMPONENTS_V2;

/** An uploaded file, by its `files[n]` index. */
export interface UploadedFile {
  filename: string;
  contentType: string | null;
  bytes: Buffer;
}

/** One entry of a body's `attachments`: a new upload (`id` is its file index) or an existing attachment kept. */
export interface AttachmentSpec {
  id: string;
  filename: string | undefined;
  description: string | undefined;
  isSpoiler: boolean | undefined;
}

/** A create or edit message body, checked. Absent fields are undefined. */
export interface MessageBody {
  content: string | undefined;
  embeds: unknown[] | undefined;
  components: unknown[] | undefined;
  flags: number | undefined;
  nonce: string | undefined;
  enforceNonce: boolean;
  reference:
    { type: 0 | 1; messageId: string; channelId: string | undefined; failIfNotExists: boolean } | undefined;
  attachments: AttachmentSpec[] | undefined;
  /** The uploaded files by index. */
  files: Map<string, UploadedFile>;
}

/**
 * Checks a create (`edit` false) or edit message body against the document's rules: 2000 characters of
 * content, embeds with ≤ 25 fields, the component rules of the message's kind (IS_COMPONENTS_V2 turns
 * `content` and `embeds` off), `nonce` ≤ 25 characters, `message_reference` for replies and forwards. Every
 * problem is reported at its path in one 50035.
 */
export function checkMessageBody(
  json: unknown,
  files: Map<string, UploadedFile>,
  options: {
    edit: boolean;
    v2Already?: boolean;
    /** Whether a premium button's `sku_id` is an available SKU of the app. @defaultValue any is */
    skuAvailable?: (skuId: string) => boolean;
  },
): MessageBody {
  const body = requireObjectBody(json);
  const errors = new FieldErrors();
  const flags = optionalInteger(errors, ['flags'], body.flags, 0, 2 ** 31 - 1);
  if (flags !== undefined && (flags & ~SENDABLE_FLAGS) !== 0) {
    errors.add(
      ['flags'],
      'MESSAGE_FLAGS_INVALID',
      'Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 may be set.',
    );
  }
  const v2 = ((flags ?? 0) & IS_COMPONENTS_V2) !== 0 || options.v2Already === true;
  if (options.edit && options.v2Already === true && flags !== undefined && (flags & IS_COMPONENTS_V2) === 0) {
    errors.add(
      ['flags'],
      'MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG',
      'IS_COMPONENTS_V2 cannot be removed from a message.',
    );
  }
  const content = optionalString(errors, ['content'], body.content, MAX_CHANNEL_MESSAGE);
  const embeds = checkEmbeds(errors, body.embeds);
  if (v2) {
    // The document: with IS_COMPONENTS_V2, `content` and `embeds` stop working (Text Display and Container instead).
    if (body.content !== undefined && body.content !== null && body.content !== '') {
      errors.add(
        ['content'],
        'MESSAGE_CONTENT_NOT_ALLOWED_WITH_COMPONENTS_V2',
        'content cannot be used with IS_COMPONENTS_V2.',
      );
    }
    if (Array.isArray(body.embeds) && body.embeds.length > 0) {
      errors.add(
        ['embeds'],
        'MESSAGE_EMBEDS_NOT_ALLOWED_WITH_COMPONENTS_V2',
        'embeds cannot be used with IS_COMPONENTS_V2.',
      );
    }
    for (const key of ['poll', 'sticker_ids']) {
      if (body[key] !== undefined)
        errors.add(
          [key],
          'MESSAGE_FIELD_NOT_ALLOWED_WITH_COMPONENTS_V2',
          `${key} cannot be used with IS_COMPONENTS_V2.`,
        );
    }
  }
  const components =
    body.components === undefined
      ? undefined
      : checkComponents(
          errors,
          body.components,
          v2 ? 'message-v2' : 'message',
          ['components'],
          options.skuAvailable,
        );
  let nonce: string | undefined;
  if (body.nonce !== undefined && body.nonce !== null) {
    if (typeof body.nonce === 'number' && Number.isSafeInteger(body.nonce)) nonce = String(body.nonce);
    else nonce = optionalString(errors, ['nonce'], body.nonce, 25);
  }
  const enforceNonce = optionalBoolean(errors, ['enforce_nonce'], body.enforce_nonce) ?? false;
  let reference: MessageBody['reference'];
  if (!options.edit && body.message_reference !== undefined && body.message_reference !== null) {
    const ref = body.message_reference;
    if (!isRecord(ref)) {
      errors.add(['message_reference'], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    } else {
      const type = optionalInteger(errors, ['message_reference', 'type'], ref.type, 0, 1) ?? 0;
      const messageId = optionalString(errors, ['message_reference', 'message_id'], ref.message_id, 20, 1);
      if (messageId === undefined)
        errors.add(['message_reference', 'message_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      const channelId = optionalString(errors, ['message_reference', 'channel_id'], ref.channel_id, 20, 1);
      if (type === 1 && channelId === undefined) {
        errors.add(
          ['message_reference', 'channel_id'],
          'BASE_TYPE_REQUIRED',
          'A forward names the channel of the message',
        );
      }
      const failIfNotExists =
        optionalBoolean(errors, ['message_reference', 'fail_if_not_exists'], ref.fail_if_not_exists) ?? true;
      if (messageId !== undefined) reference = { type: type as 0 | 1, messageId, channelId, failIfNotExists };
    }
  }
  const attachments = checkAttachmentSpecs(errors, body.attachments, files, options.edit);
  errors.finish();
  return { content, embeds, components, flags, nonce, enforceNonce, reference, attachments, files };
}

function checkAttachmentSpecs(
  errors: FieldErrors,
  value: unknown,
  files: Map<string, UploadedFile>,
  edit: boolean,
): AttachmentSpec[] | undefined {
  const list = optionalArray(errors, ['attachments'], value, MAX_ATTACHMENTS);
  if (!list) {
    // Files sent without an `attachments` list are attached as they are, in index order.
    if (value !== undefined || files.size === 0) return undefined;
    for (const [id, file] of files) {
      if (file.filename === '') unnamedFile(errors, [`files[${id}]`]);
    }
    return [...files.keys()].map((id) => ({
      id,
      filename: undefined,
      description: undefined,
      isSpoiler: undefined,
    }));
  }
  const specs: AttachmentSpec[] = [];
  list.forEach((entry, i) => {
    const at = ['attachments', i];
    if (!isRecord(entry)) {
      errors.add(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
      return;
    }
    const id =
      typeof entry.id === 'number' ? String(entry.id) : typeof entry.id === 'string' ? entry.id : undefined;
    if (id === undefined) {
      errors.add([...at, 'id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    // An id that is a file index is a new upload; on an edit, anything else must be an existing attachment.
    if (!files.has(id) && !edit) {
      errors.add([...at, 'id'], 'ATTACHMENT_NOT_FOUND', `No file files[${id}] was uploaded`);
    }
    const filename = optionalString(errors, [...at, 'filename'], entry.filename, 1024, 1);
    if (filename === undefined && files.get(id)?.filename === '') unnamedFile(errors, [...at, 'filename']);
    specs.push({
      id,
      filename,
      description: optionalString(errors, [...at, 'description'], entry.description, 1024),
      isSpoiler: optionalBoolean(errors, [...at, 'is_spoiler'], entry.is_spoiler),
    });
  });
  return specs;
}

/**
 * A file part sent with `filename=""` (what a browser form sends for an empty file input) and not renamed by
 * its `attachments` entry: its URL would end in an empty segment that nothing can fetch, so it is refused.
 */
function unnamedFile(errors: FieldErrors, at: (string | number)[]): void {
  errors.add(at, 'ATTACHMENT_FILENAME_REQUIRED', 'The file has no name; name it or its attachments entry.');
}

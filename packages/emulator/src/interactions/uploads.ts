import { wireAttachment } from '../bot/messageWire.js';
import { fileTypeAllowed } from '../bodies/fileTypes.js';
import { MAX_ATTACHMENT_BYTES } from '../bodies/messageBodies.js';
import type { AttachmentFiles } from '../social/AttachmentFiles.js';
import type { AttachmentRecord } from '../store/types.js';
import type { EmulatorUploadFile } from '../types.js';

/** Where a user's uploads through an interaction go: ids, the file store, and where their URLs point. */
export interface UploadTarget {
  nextId: () => string;
  files: AttachmentFiles;
  /** The emulator's HTTP origin. */
  http: string;
  /** The interaction's channel (guild channel or private channel id), for the upload URLs. */
  channelId: string;
}

/** A file that passed the checks, not kept yet. */
export interface CheckedUpload {
  filename: string;
  bytes: Buffer;
  contentType: string | null;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Checks one upload of `what` (a component's or option's name, for the messages): a name of 1–1024 characters
 * without a slash, bytes (or base64 text of them) within the 10 MiB upload limit, and of `fileTypes` when
 * those restrict it. Throws a RangeError naming the problem.
 */
export function checkUpload(
  file: EmulatorUploadFile,
  what: string,
  fileTypes: readonly unknown[] | undefined,
): CheckedUpload {
  if (file.filename.length < 1 || file.filename.length > 1024 || /[/\\]/.test(file.filename))
    throw new RangeError(`a file of "${what}" needs a name of 1–1024 characters without a slash`);
  if (typeof file.data === 'string' && (file.data.length % 4 !== 0 || !BASE64.test(file.data)))
    throw new RangeError(`a file of "${what}" is not base64 (data)`);
  const bytes = typeof file.data === 'string' ? Buffer.from(file.data, 'base64') : Buffer.from(file.data);
  if (bytes.length > MAX_ATTACHMENT_BYTES)
    throw new RangeError(`${file.filename} is over the ${MAX_ATTACHMENT_BYTES}-byte upload limit`);
  const contentType = file.contentType ?? null;
  if (!fileTypeAllowed(fileTypes, file.filename, contentType)) {
    throw new RangeError(
      `${file.filename} is not of the types "${what}" takes (${(fileTypes ?? []).join(', ')})`,
    );
  }
  return { filename: file.filename, bytes, contentType };
}

/**
 * Keeps a checked upload, served at its attachment URL under the interaction's channel, and answers it as
 * `resolved.attachments` carries it: an ephemeral attachment, since it belongs to no message.
 */
export function keepUpload(target: UploadTarget, upload: CheckedUpload): Record<string, unknown> {
  const record: AttachmentRecord = {
    id: target.nextId(),
    filename: upload.filename,
    size: upload.bytes.length,
    contentType: upload.contentType,
    description: null,
    spoiler: false,
  };
  target.files.put(record.id, {
    bytes: upload.bytes,
    contentType: upload.contentType,
    loose: { channelId: target.channelId, filename: upload.filename },
  });
  return { ...wireAttachment(target.http, target.channelId, record), ephemeral: true };
}

/** Whether an option value is an upload: `{ filename, data }` (and maybe `contentType`). */
export function isUpload(value: unknown): value is EmulatorUploadFile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.filename === 'string' &&
    (typeof v.data === 'string' || v.data instanceof Uint8Array) &&
    (v.contentType === undefined || typeof v.contentType === 'string')
  );
}

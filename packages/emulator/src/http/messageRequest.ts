import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, type UploadedFile } from '../bodies/messageBodies.js';
import { ApiError } from '../platform/errors.js';
import { parseJsonBody } from './jsonBody.js';
import type { RouteRequest } from './router.js';

/** The largest JSON message body (files come as multipart, bounded per file). */
export const MAX_MESSAGE_BODY_BYTES = 1024 * 1024;

/**
 * Reads a message body: JSON, or `multipart/form-data` with `payload_json` and `files[n]` parts. A file over
 * {@link MAX_ATTACHMENT_BYTES} gets 413 40005 naming it; the check is per attachment, so several large files
 * in one message are fine.
 */
export async function readMessageRequest(
  req: RouteRequest,
): Promise<{ json: unknown; files: Map<string, UploadedFile> }> {
  const files = new Map<string, UploadedFile>();
  if (!req.isMultipart()) return { json: await req.json(), files };
  const form = await req.multipart({
    fileBytes: MAX_ATTACHMENT_BYTES,
    files: MAX_ATTACHMENTS,
    fieldBytes: 1024 * 1024,
    fields: 4,
  });
  let json: unknown = {};
  const payload = form.fields.get('payload_json');
  if (payload !== undefined) {
    json = parseJsonBody(payload);
  }
  for (const file of form.files) {
    const index = /^files\[([0-9]{1,2})\]$/.exec(file.field)?.[1];
    if (index === undefined) continue;
    if (file.truncated) {
      throw new ApiError(
        413,
        40005,
        `Request entity too large: ${file.filename} is over ${MAX_ATTACHMENT_BYTES} bytes`,
      );
    }
    files.set(index, { filename: file.filename, contentType: file.contentType, bytes: file.bytes });
  }
  return { json, files };
}

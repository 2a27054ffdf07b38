import { randomBytes } from 'node:crypto';

import type { FieldErrors, FieldPath } from './fieldErrors.js';

/** A `data:` URI of an image type the platform takes for icons and covers. */
const IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * An image field of an edit body: a `data:` URI of a png, jpeg, gif or webp of at most `maxBytes` decoded,
 * kept as a new hash (the emulator keeps no picture, as a client only ever sees the CDN's hash); null clears
 * it. Returns undefined (with the error added) for anything else.
 */
export function imageField(
  errors: FieldErrors,
  path: FieldPath,
  value: unknown,
  maxBytes: number,
): string | null | undefined {
  if (value === null) return null;
  const image = typeof value === 'string' ? IMAGE.exec(value) : null;
  if (!image) {
    errors.add(path, 'BINARY_TYPE_INVALID', 'A data URI of a png, jpeg, gif or webp image.');
    return undefined;
  }
  if (Buffer.byteLength(image[2] ?? '', 'base64') > maxBytes) {
    errors.add(path, 'BINARY_TYPE_MAX_SIZE', `The image is over ${maxBytes} bytes.`);
    return undefined;
  }
  return randomBytes(16).toString('hex');
}

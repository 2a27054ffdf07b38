import { optionalArray, type FieldErrors, type FieldPath } from './fieldErrors.js';

/** At most this many entries in `file_types` (File Upload components and ATTACHMENT command options). */
export const MAX_FILE_TYPES = 10;

/** The kinds `file_types` may name besides dot-prefixed extensions. */
const KINDS = ['audio', 'image', 'video'] as const;
type Kind = (typeof KINDS)[number];

/** Extensions of each kind, for a file whose uploader named no content type. */
const KIND_EXTENSIONS: Readonly<Record<Kind, readonly string[]>> = {
  image: ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.bmp'],
  audio: ['.mp3', '.ogg', '.oga', '.opus', '.wav', '.flac', '.m4a'],
  video: ['.mp4', '.mov', '.webm', '.mkv'],
};

/** A dot-prefixed extension: `.png`, `.tar.gz`. */
const EXTENSION = /^(\.[A-Za-z0-9_-]{1,16}){1,3}$/;

/**
 * Checks `file_types` at `path`: at most 10 entries, each `audio`, `image`, `video` or a dot-prefixed
 * extension (what the platform's File Upload component and ATTACHMENT option take). Returns the list, or
 * undefined when absent or wrong (the errors recorded).
 */
export function checkFileTypes(errors: FieldErrors, path: FieldPath, value: unknown): string[] | undefined {
  const list = optionalArray(errors, path, value, MAX_FILE_TYPES, 1);
  if (!list) return undefined;
  let ok = true;
  list.forEach((entry, i) => {
    if (
      typeof entry !== 'string' ||
      !((KINDS as readonly string[]).includes(entry) || EXTENSION.test(entry))
    ) {
      errors.add(
        [...path, i],
        'BASE_TYPE_CHOICES',
        'Value must be audio, image, video or a dot-prefixed extension.',
      );
      ok = false;
    }
  });
  return ok ? (list as string[]) : undefined;
}

/**
 * Whether a file may be uploaded where `fileTypes` restricts it: any file when there is no restriction; else
 * its name ends with a listed extension, or it is of a listed kind (by its content type, else its extension).
 */
export function fileTypeAllowed(
  fileTypes: readonly unknown[] | undefined,
  filename: string,
  contentType: string | null,
): boolean {
  if (fileTypes === undefined || fileTypes.length === 0) return true;
  const name = filename.toLowerCase();
  return fileTypes.some((entry) => {
    if (typeof entry !== 'string') return false;
    if (entry.startsWith('.')) return name.endsWith(entry.toLowerCase());
    const kind = entry as Kind;
    if (!(KINDS as readonly string[]).includes(kind)) return false;
    if (contentType !== null) return contentType.toLowerCase().startsWith(`${kind}/`);
    return KIND_EXTENSIONS[kind].some((ext) => name.endsWith(ext));
  });
}

import { isRecord } from '../bodies/fieldErrors.js';
import type { AttachmentRecord } from '../store/types.js';

/** Component types that show media: Thumbnail, Media Gallery, File. */
const THUMBNAIL = 11;
const MEDIA_GALLERY = 12;
const FILE = 13;
const ATTACHMENT_SCHEME = 'attachment://';

/** What {@link exposeAttachments} found: the components with their media resolved, and what they show. */
export interface ExposedMedia {
  components: unknown[];
  /** The ids of the attachments a Thumbnail, Media Gallery or File component shows. */
  shown: Set<string>;
}

/**
 * Resolves the `attachment://<filename>` references of a Components V2 message's Thumbnail, Media Gallery and
 * File components to the attachments' URLs (with `attachment_id` and `content_type`, as the platform answers
 * them), and collects which attachments they show: in such a message, the document says, only those show.
 * The stored components are not changed (a deep copy is answered).
 */
export function exposeAttachments(
  components: readonly unknown[],
  attachments: readonly AttachmentRecord[],
  urlOf: (attachment: AttachmentRecord) => string,
): ExposedMedia {
  const shown = new Set<string>();
  const media = (item: unknown): unknown => {
    if (!isRecord(item) || typeof item.url !== 'string' || !item.url.startsWith(ATTACHMENT_SCHEME))
      return item;
    const name = item.url.slice(ATTACHMENT_SCHEME.length);
    const attachment = attachments.find((a) => a.filename === name);
    if (!attachment) return item;
    shown.add(attachment.id);
    const url = urlOf(attachment);
    return {
      ...item,
      url,
      proxy_url: url,
      attachment_id: attachment.id,
      ...(attachment.contentType === null ? {} : { content_type: attachment.contentType }),
    };
  };
  const walk = (c: unknown): unknown => {
    if (!isRecord(c)) return c;
    const copy: Record<string, unknown> = { ...c };
    if (c.type === THUMBNAIL) copy.media = media(c.media);
    if (c.type === FILE) copy.file = media(c.file);
    if (c.type === MEDIA_GALLERY && Array.isArray(c.items)) {
      copy.items = c.items.map((item: unknown) =>
        isRecord(item) ? { ...item, media: media(item.media) } : item,
      );
    }
    if (Array.isArray(c.components)) copy.components = c.components.map(walk);
    if (isRecord(c.accessory)) copy.accessory = walk(c.accessory);
    return copy;
  };
  return { components: structuredClone(components as unknown[]).map(walk), shown };
}

import type { AttachmentRecord } from '../store/types.js';

/** What the emulator keeps of an uploaded file. */
export interface StoredFile {
  bytes: Buffer;
  contentType: string | null;
  /**
   * For a file no stored message holds (a modal's upload, an attachment option's file): the channel and name
   * its URL is served under. A message's attachment is found through the message instead.
   */
  loose?: { channelId: string; filename: string };
}

/** Where an attachment's bytes are served: `${http}/attachments/{channel}/{attachment}/{filename}`. */
export function attachmentUrl(http: string, channelId: string, attachment: AttachmentRecord): string {
  return `${http}/attachments/${channelId}/${attachment.id}/${encodeURIComponent(attachment.filename)}`;
}

/** The default budget of {@link AttachmentFiles}: 256 MiB. */
export const DEFAULT_ATTACHMENT_BUDGET = 256 * 1024 * 1024;

/**
 * The bytes of message attachments, in memory beside the store (a saved state keeps the attachment records,
 * not the files). Bounded: past the budget the oldest files are forgotten, and their URLs answer 404.
 */
export class AttachmentFiles {
  readonly #files = new Map<string, StoredFile>();
  readonly #budget: number;
  #bytes = 0;

  constructor(budget = DEFAULT_ATTACHMENT_BUDGET) {
    this.#budget = budget;
  }

  /** Keeps a file under its attachment id, forgetting the oldest ones to stay within the budget. */
  put(id: string, file: StoredFile): void {
    this.delete(id);
    this.#files.set(id, file);
    this.#bytes += file.bytes.length;
    for (const [oldId, old] of this.#files) {
      if (this.#bytes <= this.#budget || oldId === id) break;
      this.#files.delete(oldId);
      this.#bytes -= old.bytes.length;
    }
  }

  /** A file by attachment id. */
  get(id: string): StoredFile | undefined {
    return this.#files.get(id);
  }

  /** Forgets a file. */
  delete(id: string): void {
    const file = this.#files.get(id);
    if (!file) return;
    this.#files.delete(id);
    this.#bytes -= file.bytes.length;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }
}

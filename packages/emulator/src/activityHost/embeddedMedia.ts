import type { IncomingMessage } from 'node:http';

import { MAX_ATTACHMENT_BYTES } from '../bodies/messageBodies.js';
import { fail } from '../localClient/commands.js';
import { RpcErrorCode } from '../localClient/protocol.js';
import type { EmbeddedScope, PickedImage } from './embeddedScope.js';

/** The longest `mediaUrl` OPEN_SHARE_MOMENT_DIALOG takes (the SDK's schema). */
const MAX_MEDIA_URL = 1024;

/** A filename kept for a URL path: letters, digits, dot, dash and underscore, at most 100 characters. */
function safeFilename(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return (cleaned || 'image').slice(0, 100);
}

/**
 * Reads an upload of the host page's file picker: an image (`content-type: image/*`) of at most the platform's
 * 10 MiB, its name in `x-filename`. Resolves a string saying what is wrong instead; never rejects.
 */
export function readPickedImage(req: IncomingMessage): Promise<PickedImage | string> {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!/^image\/[a-z0-9.+-]+$/.test(contentType)) {
    req.resume();
    return Promise.resolve('the file is not an image');
  }
  const named = req.headers['x-filename'];
  const filename = safeFilename(
    decodeURIComponent(typeof named === 'string' ? named : 'image').slice(0, 200),
  );
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ATTACHMENT_BYTES) {
        // Answered at once; the rest is read and dropped (the server's request timeout bounds it).
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        resolve(`the image is larger than ${MAX_ATTACHMENT_BYTES} bytes`);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => resolve('the upload failed'));
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks), contentType, filename }));
  });
}

/**
 * INITIATE_IMAGE_UPLOAD (`initiateImageUpload`): the client's file picker, in the host page; the picked image
 * is uploaded to the platform's CDN (the emulator's attachments) and the reply is its `image_url`. A player who
 * closes the picker gets an ERROR (4000), as nothing was uploaded.
 */
export async function initiateImageUpload(scope: EmbeddedScope): Promise<unknown> {
  const { ctx, instance, user } = scope;
  const picked = await scope.pickImage();
  if (picked === null) return fail(RpcErrorCode.InvalidPayload, 'The player closed the file picker');
  const id = ctx.store.nextId();
  // An upload belongs to no message: it is served under the instance's channel (the player's id privately).
  const channelId = instance.channelId ?? user.id;
  ctx.guilds.messages.files.put(id, {
    bytes: picked.bytes,
    contentType: picked.contentType,
    loose: { channelId, filename: picked.filename },
  });
  ctx.log.line(
    'activity',
    `${user.username} uploaded an image (${picked.bytes.length} bytes) from an Activity`,
  );
  return { image_url: `${ctx.urls.http}/attachments/${channelId}/${id}/${picked.filename}` };
}

/**
 * OPEN_SHARE_MOMENT_DIALOG (`openShareMomentDialog`): the client's dialog for sharing an image, in the host
 * page. The platform takes media on its own CDN only (what `initiateImageUpload` answers), so another URL is
 * 4000. The reply is null once the dialog shows.
 */
export function openShareMomentDialog(scope: EmbeddedScope, args: Record<string, unknown>): unknown {
  const { ctx } = scope;
  const mediaUrl = args.mediaUrl;
  if (typeof mediaUrl !== 'string' || mediaUrl.length > MAX_MEDIA_URL)
    fail(RpcErrorCode.InvalidPayload, `"mediaUrl" must be a URL of at most ${MAX_MEDIA_URL} characters`);
  let url: URL | undefined;
  try {
    url = new URL(mediaUrl);
  } catch {
    url = undefined;
  }
  if (url?.origin !== new URL(ctx.urls.http).origin || !url.pathname.startsWith('/attachments/'))
    fail(
      RpcErrorCode.InvalidPayload,
      '"mediaUrl" must be on the platform\'s CDN (initiateImageUpload\'s image_url)',
    );
  scope.showDialog({ kind: 'moment', url: url.href });
  ctx.log.line('activity', `${scope.user.username} opened the share moment dialog`);
  return null;
}

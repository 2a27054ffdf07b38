import type { EmulatorContext } from '../context.js';
import type { Route } from './router.js';

/**
 * Serves uploaded attachments at `/attachments/{channel}/{attachment}/{filename}` (the `url` of an attachment
 * object), as `application/octet-stream` unless the uploader named a type, and never inline-rendered as a
 * page: the emulator's origin also serves the dashboard. Files of no message (a modal's uploads) are served
 * under the channel and name they were uploaded with.
 */
export function attachmentRoutes(ctx: EmulatorContext): Route[] {
  return [
    {
      method: 'GET',
      scope: 'root',
      pattern: '/attachments/:channel_id/:attachment_id/:filename',
      style: 'api',
      handle: (req) => {
        const message = ctx.guilds.messages
          .inChannel(req.params.channel_id ?? '')
          .find((m) => (m.attachments ?? []).some((a) => a.id === req.params.attachment_id));
        const record = message?.attachments?.find((a) => a.id === req.params.attachment_id);
        const id = req.params.attachment_id ?? '';
        const file = ctx.guilds.messages.files.get(record?.id ?? id);
        // A file of no message (a modal's upload) answers under the channel and name it was uploaded with.
        const named = record
          ? record.filename === req.params.filename
          : file?.loose?.channelId === req.params.channel_id && file?.loose?.filename === req.params.filename;
        if (!file || !named) {
          return { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'Not found' };
        }
        return {
          status: 200,
          headers: {
            'Content-Type': file.contentType ?? 'application/octet-stream',
            'Content-Disposition': 'attachment',
            'X-Content-Type-Options': 'nosniff',
          },
          body: file.bytes,
        };
      },
    },
  ];
}

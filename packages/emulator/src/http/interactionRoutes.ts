import type { EmulatorContext } from '../context.js';
import type { LiveInteraction } from '../interactions/Interactions.js';
import { ApiError, unknown } from '../platform/errors.js';
import type { ChannelMessageRecord } from '../store/types.js';
import { MAX_MESSAGE_BODY_BYTES, readMessageRequest } from './messageRequest.js';
import { jsonReply, noContentReply } from './replies.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** 401 50027: the interaction webhook token is unknown or past its 15 minutes. */
function invalidToken(): ApiError {
  return new ApiError(401, 50027, 'Invalid Webhook Token');
}

/**
 * The interaction response routes, authenticated by the interaction's token (no bot token): Create
 * Interaction Response (`POST /interactions/{id}/{token}/callback`, 204, or the callback response with
 * `?with_response=true`), and the interaction webhook: Get / Edit / Delete Original Interaction Response,
 * Create Followup Message (5 at most for user-installed apps), and Get / Edit / Delete Followup Message.
 */
export function interactionRoutes(ctx: EmulatorContext): Route[] {
  const { interactions, flow } = ctx;
  const applicationId = ctx.store.state.application.id;

  const webhook = (req: RouteRequest): LiveInteraction => {
    if (req.params.application_id !== applicationId) throw unknown('Application');
    const found = interactions.byToken(req.params.token ?? '');
    if (!found) throw invalidToken();
    return found;
  };
  const messageOf = (interaction: LiveInteraction, id: string): ChannelMessageRecord => {
    const messageId = id === '@original' ? interaction.originalMessageId : id;
    const mine =
      messageId !== null &&
      (messageId === interaction.originalMessageId || interaction.followUps.includes(messageId));
    const record =
      mine && messageId !== null ? flow.findMessage(messageId, interaction.channelId) : undefined;
    if (!record) throw unknown('Message');
    return record;
  };
  // Interaction responses may be as large as a message body.
  const route = (method: Route['method'], pattern: string, handle: Route['handle']): Route =>
    apiRoute(method, pattern, handle, { maxBodyBytes: MAX_MESSAGE_BODY_BYTES });
  const base = '/webhooks/:application_id/:token';

  return [
    route('POST', '/interactions/:interaction_id/:token/callback', async (req) => {
      const interaction = interactions.withToken(req.params.interaction_id ?? '', req.params.token ?? '');
      if (!interaction) throw new ApiError(404, 10062, 'Unknown interaction');
      const { json, files } = await readMessageRequest(req);
      const message = flow.respond(interaction, json, files);
      if (req.query().get('with_response') !== 'true') return noContentReply();
      return jsonReply(200, {
        interaction: {
          id: interaction.id,
          type: interaction.type,
          response_message_id: interaction.originalMessageId,
          response_message_loading: message !== null && ((message.flags ?? 0) & (1 << 7)) !== 0,
          response_message_ephemeral: message !== null && ((message.flags ?? 0) & (1 << 6)) !== 0,
        },
        resource: {
          type: interaction.responseType,
          ...(message ? { message: flow.wire(interaction, message) } : {}),
        },
      });
    }),
    route('POST', base, async (req) => {
      const interaction = webhook(req);
      const { json, files } = await readMessageRequest(req);
      return jsonReply(200, flow.wire(interaction, flow.followUp(interaction, json, files)));
    }),
    route('GET', `${base}/messages/:message_id`, (req) => {
      const interaction = webhook(req);
      return jsonReply(200, flow.wire(interaction, messageOf(interaction, req.params.message_id ?? '')));
    }),
    route('PATCH', `${base}/messages/:message_id`, async (req) => {
      const interaction = webhook(req);
      const record = messageOf(interaction, req.params.message_id ?? '');
      const { json, files } = await readMessageRequest(req);
      flow.editMessage(interaction, record, json, files);
      return jsonReply(200, flow.wire(interaction, record));
    }),
    route('DELETE', `${base}/messages/:message_id`, (req) => {
      const interaction = webhook(req);
      flow.deleteMessage(interaction, messageOf(interaction, req.params.message_id ?? ''));
      return noContentReply();
    }),
  ];
}

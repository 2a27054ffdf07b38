import type { EmulatorContext } from '../context.js';
import { verifyInteractionsEndpoint } from '../interactions/endpointCheck.js';
import { ApiError } from '../platform/errors.js';
import { applicationFlags, privilegedIntentsOf } from '../store/applicationFlags.js';
import { MAX_APPLICATION_IMAGE_BYTES, readApplicationEdit, type ApplicationEdit } from './applicationEdit.js';
import { wireApplication } from './applicationObject.js';
import { jsonReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route } from './router.js';

/** An edit may carry an icon and a cover image, each up to 1 MiB, base64 in JSON (a third larger). */
const MAX_EDIT_BODY = 2 * Math.ceil((MAX_APPLICATION_IMAGE_BYTES * 4) / 3) + 64 * 1024;

/** The platform's answer to an interactions endpoint that failed the check. */
function endpointRefused(): ApiError {
  return new ApiError(400, 50035, 'Invalid Form Body', {
    errors: {
      interactions_endpoint_url: {
        _errors: [
          {
            code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
            message: 'The specified interactions endpoint URL could not be verified.',
          },
        ],
      },
    },
  });
}

/** The names of the body fields an edit set, for the log (never their values: a URL may carry a secret). */
function editedFields(edit: ApplicationEdit): string {
  return Object.keys(edit).join(', ') || 'nothing';
}

/**
 * Get Current Application and Edit Current Application (`/applications/@me`), with the bot token. An edit
 * changes only the fields it names; a new interactions endpoint URL is checked first, as the developer portal
 * checks it (a signed PING answered with PONG, a wrongly signed one refused with 401), and a URL that fails is
 * refused with nothing changed. Limited intent flags switch the bot's privileged intents, as the portal's
 * toggles do. Edits live in the application record, so a saved state keeps them.
 */
export function currentApplicationRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('GET', '/applications/@me', (req) => {
      requireBot(ctx, req);
      return jsonReply(200, wireApplication(ctx));
    }),
    apiRoute(
      'PATCH',
      '/applications/@me',
      async (req) => {
        requireBot(ctx, req);
        const edit = readApplicationEdit(await req.json(), applicationFlags(ctx.store.state));
        const url = edit.interactionsEndpointUrl;
        if (url !== undefined && url !== null) {
          try {
            await verifyInteractionsEndpoint(url, ctx);
          } catch (error) {
            if (!(error instanceof RangeError)) throw error;
            throw endpointRefused();
          }
        }
        // Set after the check, so a refused URL changes nothing, and all at once, so no edit is half applied.
        const app = ctx.store.state.application;
        const { flags, ...fields } = edit;
        Object.assign(app, fields);
        if (flags !== undefined) app.privilegedIntents = privilegedIntentsOf(flags);
        ctx.log.line('application', `edited: ${editedFields(edit)}`);
        return jsonReply(200, wireApplication(ctx));
      },
      { maxBodyBytes: MAX_EDIT_BODY },
    ),
  ];
}

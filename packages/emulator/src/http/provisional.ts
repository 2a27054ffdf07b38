import type { EmulatorContext } from '../context.js';
import { ApiError, unknown } from '../platform/errors.js';
import { safeEqual } from '../random.js';
import { EXTERNAL_AUTH_TYPES, type ExternalAuthType } from '../store/types.js';
import { noContentReply, noStoreJsonReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';
import { BodyReader } from './validation.js';

/** The credential fields shared by the public-client token and unmerge endpoints. */
interface ExternalCredentials {
  type: ExternalAuthType;
  token: string;
}

async function readExternalCredentials(
  ctx: EmulatorContext,
  req: RouteRequest,
): Promise<ExternalCredentials> {
  const body = new BodyReader(await req.json());
  const clientId = body.snowflake('client_id');
  const secret = body.string('client_secret', 1, 1024, false);
  const type = body.choice('external_auth_type', EXTERNAL_AUTH_TYPES);
  const token = body.string('external_auth_token', 1, 10_240, true);
  body.finish();
  const app = ctx.store.state.application;
  if (clientId === undefined || type === undefined || token === undefined) {
    throw new Error('unreachable: checked above');
  }
  if (clientId !== app.id) throw unknown('Application');
  if (secret !== undefined && !safeEqual(secret, app.clientSecret)) {
    throw new ApiError(400, 530007, 'Invalid client secret');
  }
  return { type, token };
}

async function readExternalUserId(
  req: RouteRequest,
): Promise<{ externalUserId: string; preferredName: string | null }> {
  const body = new BodyReader(await req.json());
  const externalUserId = body.string('external_user_id', 1, 1024, true);
  const preferredName = body.string('preferred_global_name', 1, 32, false);
  body.finish();
  if (externalUserId === undefined) throw new Error('unreachable: checked above');
  return { externalUserId, preferredName: preferredName ?? null };
}

/** The provisional-account endpoints (`/partner-sdk/*`, reference §4.7). */
export function provisionalRoutes(ctx: EmulatorContext): Route[] {
  return [
    apiRoute('POST', '/partner-sdk/token', async (req) => {
      const { type, token } = await readExternalCredentials(ctx, req);
      const ref = await ctx.accounts.resolveExternal(type, token);
      const origin = type === 'DISCORD_BOT_ISSUED_ACCESS_TOKEN' ? 'provisional-bot' : 'provisional';
      return noStoreJsonReply(200, ctx.accounts.provisionalToken(ref, origin));
    }),
    apiRoute('POST', '/partner-sdk/token/bot', async (req) => {
      requireBot(ctx, req);
      const { externalUserId, preferredName } = await readExternalUserId(req);
      const ref = ctx.accounts.botIdentity(externalUserId, preferredName);
      return noStoreJsonReply(200, ctx.accounts.provisionalToken(ref, 'provisional-bot'));
    }),
    apiRoute('POST', '/partner-sdk/provisional-accounts/unmerge', async (req) => {
      const { type, token } = await readExternalCredentials(ctx, req);
      ctx.accounts.unmerge(await ctx.accounts.resolveExternal(type, token));
      return noContentReply();
    }),
    apiRoute('POST', '/partner-sdk/provisional-accounts/unmerge/bot', async (req) => {
      requireBot(ctx, req);
      const { externalUserId } = await readExternalUserId(req);
      ctx.accounts.unmerge(ctx.accounts.botIdentity(externalUserId, null));
      return noContentReply();
    }),
  ];
}

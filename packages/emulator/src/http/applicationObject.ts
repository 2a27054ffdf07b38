import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { applicationFlags } from '../store/applicationFlags.js';
import { verifyKeyHex } from '../store/applicationKey.js';
import type { ApplicationRecord, InstallParamsRecord } from '../store/types.js';

/** The platform's application integration types: the keys of `integration_types_config`. */
const INTEGRATION_TYPE = { guild: '0', user: '1' } as const;

function wireInstallParams(params: InstallParamsRecord): Record<string, unknown> {
  return { scopes: [...params.scopes], permissions: params.permissions };
}

/**
 * The users holding an OAuth2 grant of the application, with the scopes of their grants: refresh tokens (only
 * OAuth2 issues them) and live OAuth2 access tokens. Provisional accounts' tokens are no user's authorization.
 */
function authorizations(ctx: EmulatorContext): Map<string, Set<string>> {
  const { store } = ctx;
  const now = store.now();
  const byUser = new Map<string, Set<string>>();
  const grants = [
    ...Object.values(store.state.refreshTokens),
    ...Object.values(store.state.accessTokens).filter((t) => t.origin === 'oauth2' && t.expiresAt > now),
  ];
  for (const grant of grants) {
    const scopes = byUser.get(grant.userId) ?? new Set<string>();
    for (const scope of grant.scopes) scopes.add(scope);
    byUser.set(grant.userId, scopes);
  }
  return byUser;
}

/**
 * The users who installed the app to their account: those whose authorization made a user install
 * (`integration_type=1`), and those holding a grant with `applications.commands`.
 */
function userInstallsOf(app: ApplicationRecord, granted: Map<string, Set<string>>): Set<string> {
  const users = new Set(app.userInstalls ?? []);
  for (const [userId, scopes] of granted) if (scopes.has('applications.commands')) users.add(userId);
  return users;
}

/**
 * The application object, as Get Current Application returns it: what the developer portal holds of the one
 * application the emulator serves. The owner is the first test user (alice in a seeded world), standing in
 * for the developer's own account, which the emulator does not have; absent while there is no user. Counts
 * are exact, though the platform calls them approximate: guilds the bot is in, and users holding an OAuth2
 * grant (all of them, and those whose grant includes `applications.commands`, a user install, shown while
 * the application supports user installs).
 */
export function wireApplication(ctx: EmulatorContext): Record<string, unknown> {
  const { store, guilds } = ctx;
  const app = store.state.application;
  const flags = applicationFlags(store.state);
  const bot = store.botUser();
  const owner = store.fullUsers()[0];
  const granted = authorizations(ctx);
  const installs = userInstallsOf(app, granted).size;
  const config: Record<string, unknown> = {};
  for (const context of ['guild', 'user'] as const) {
    const params = app.installContexts[context];
    if (params === undefined) continue;
    config[INTEGRATION_TYPE[context]] =
      params === null ? {} : { oauth2_install_params: wireInstallParams(params) };
  }
  return {
    id: app.id,
    name: app.name,
    icon: app.icon,
    description: app.description,
    summary: '',
    // Any user who may manage a guild can add the bot, without the full code grant (see botAuthorize.ts).
    bot_public: true,
    bot_require_code_grant: false,
    bot: wireUser(bot),
    ...(owner === undefined ? {} : { owner: wireUser(owner) }),
    verify_key: verifyKeyHex(app.signatureKey),
    team: null,
    flags,
    flags_new: String(flags),
    approximate_guild_count: guilds.all().filter((g) => guilds.isMember(g.id, bot.id)).length,
    ...(app.installContexts.user === undefined ? {} : { approximate_user_install_count: installs }),
    approximate_user_authorization_count: granted.size,
    interactions_endpoint_url: app.interactionsEndpointUrl,
    role_connections_verification_url: app.roleConnectionsVerificationUrl,
    event_webhooks_url: ctx.webhooks.url,
    ...(app.coverImage === null ? {} : { cover_image: app.coverImage }),
    ...(app.tags.length === 0 ? {} : { tags: [...app.tags] }),
    ...(app.installParams === null ? {} : { install_params: wireInstallParams(app.installParams) }),
    ...(app.customInstallUrl === null ? {} : { custom_install_url: app.customInstallUrl }),
    integration_types_config: config,
  };
}

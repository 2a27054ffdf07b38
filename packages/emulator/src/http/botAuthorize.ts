import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { checkConsentToken, makeConsentToken } from '../oauth/csrf.js';
import { isRegisteredRedirectUri, withQueryParams } from '../oauth/redirectUris.js';
import { ALL_PERMISSIONS, Permission, hasAll, permissionNames } from '../platform/permissions.js';
import { parseScopeParam } from '../store/scopes.js';
import type { Fields } from './body.js';
import { ACTION_FIELD, CSRF_FIELD, USER_FIELD } from './consentPage.js';
import { HtmlError } from './errors.js';
import { escapeHtml, htmlPage } from './html.js';
import { htmlReply, redirectReply, type Reply } from './replies.js';

/** The scopes of adding a bot; the emulator adds bots with these alone. */
const BOT_SCOPES = new Set(['bot', 'applications.commands']);
/** The parameters a bot authorization reads. */
const BOT_PARAMS = [
  'client_id',
  'scope',
  'permissions',
  'guild_id',
  'disable_guild_select',
  'redirect_uri',
  'state',
  'login_hint',
  'integration_type',
];
/** Name of the guild picker. */
export const GUILD_FIELD = 'guild_id';
const TITLE = 'Add to server';

/** A checked bot authorization request. */
interface BotRequest {
  params: Map<string, string>;
  scopes: string[];
  permissions: bigint;
  guildId: string | undefined;
  redirectUri: string | undefined;
  state: string | undefined;
}

/** Whether an authorize request adds a bot (its scope holds `bot`). */
export function isBotAuthorization(fields: Fields): boolean {
  return parseScopeParam(fields.get('scope') ?? '').includes('bot');
}

function check(ctx: EmulatorContext, fields: Fields): BotRequest {
  const app = ctx.store.state.application;
  const params = new Map<string, string>();
  for (const name of BOT_PARAMS) {
    const value = fields.get(name);
    if (value !== undefined) params.set(name, value);
  }
  if (params.get('client_id') !== app.id) throw new HtmlError(400, TITLE, 'Unknown application (client_id).');
  const scopes = parseScopeParam(params.get('scope') ?? '');
  const other = scopes.find((s) => !BOT_SCOPES.has(s));
  if (other !== undefined) {
    throw new HtmlError(
      400,
      TITLE,
      `The emulator adds a bot with the scopes bot and applications.commands alone; ask for ${other} in a separate sign-in.`,
    );
  }
  // Adding a bot is a guild install: the link cannot make it a user install, nor make it once the portal's
  // Installation page dropped guild installs.
  const integrationType = params.get('integration_type') ?? '0';
  if (integrationType !== '0') {
    throw new HtmlError(400, TITLE, 'The bot scope is a guild install: integration_type must be 0.');
  }
  if (app.installContexts.guild === undefined) {
    throw new HtmlError(400, TITLE, 'This application does not support guild installs.');
  }
  const permissionsText = params.get('permissions') ?? '0';
  if (!/^[0-9]{1,20}$/.test(permissionsText) || (BigInt(permissionsText) & ~ALL_PERMISSIONS) !== 0n) {
    throw new HtmlError(400, TITLE, 'permissions must be a bitfield of known permission bits.');
  }
  const redirectUri = params.get('redirect_uri');
  if (redirectUri !== undefined && !isRegisteredRedirectUri(redirectUri, app)) {
    throw new HtmlError(
      400,
      TITLE,
      `The redirect_uri ${redirectUri} is not registered for this application.`,
    );
  }
  return {
    params,
    scopes,
    permissions: BigInt(permissionsText),
    guildId: params.get('guild_id'),
    redirectUri,
    state: params.get('state'),
  };
}

/**
 * Adds the bot to the guild as `userId`, who must hold MANAGE_GUILD there: the bot joins with its managed role
 * holding the asked permissions, and the APPLICATION_AUTHORIZED webhook event goes out with integration type
 * 0 and the guild.
 */
function approve(ctx: EmulatorContext, request: BotRequest, userId: string, guildId: string): Reply {
  const { guilds, store } = ctx;
  const user = store.user(userId);
  const guild = guilds.guild(guildId);
  if (!user || user.bot || user.banned) throw new HtmlError(400, TITLE, 'Choose a user.');
  if (!guild) throw new HtmlError(400, TITLE, 'Choose a server.');
  if (!hasAll(guilds.guildPermissions(guild.id, user.id), Permission.MANAGE_GUILD)) {
    throw new HtmlError(
      403,
      TITLE,
      `${user.username} may not add apps to ${guild.name}: that takes Manage Server.`,
    );
  }
  const bot = store.botUser();
  guilds.addBot(guild.id, bot.id, bot.username, request.permissions);
  ctx.log.line(
    'oauth2',
    `${user.username} added the bot to ${guild.name} (permissions ${request.permissions})`,
  );
  ctx.webhooks.emit('APPLICATION_AUTHORIZED', {
    integration_type: 0,
    user: wireUser(user),
    scopes: request.scopes,
    guild: { id: guild.id, name: guild.name, owner_id: guild.ownerId },
  });
  if (request.redirectUri !== undefined) {
    return redirectReply(
      withQueryParams(request.redirectUri, {
        guild_id: guild.id,
        permissions: request.permissions.toString(),
        state: request.state,
      }),
    );
  }
  return htmlReply(
    200,
    htmlPage(
      TITLE,
      `<h1>Added</h1><p>${escapeHtml(store.state.application.name)} is now in ${escapeHtml(guild.name)}.</p>`,
    ),
  );
}

/** GET /oauth2/authorize with `scope=bot`: the "add to server" page (or, with auto consent, the addition). */
export function getBotAuthorize(ctx: EmulatorContext, fields: Fields): Reply {
  const request = check(ctx, fields);
  const { store, guilds } = ctx;
  if (ctx.options.autoConsent) {
    const hint = request.params.get('login_hint');
    const user = hint !== undefined ? store.findUser(hint) : store.fullUsers()[0];
    if (!user || request.guildId === undefined) {
      throw new HtmlError(
        400,
        TITLE,
        'With auto consent, adding a bot needs guild_id (and login_hint or a user).',
      );
    }
    return approve(ctx, request, user.id, request.guildId);
  }
  const hidden = [...request.params.entries()]
    .filter(([name]) => name !== GUILD_FIELD || request.params.get('disable_guild_select') === 'true')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const users = store.fullUsers().filter((u) => !u.banned);
  const guildOptions = guilds
    .all()
    .map((g) => {
      const selected = g.id === request.guildId ? ' selected' : '';
      return `<option value="${escapeHtml(g.id)}"${selected}>${escapeHtml(g.name)}</option>`;
    })
    .join('\n');
  const guildPicker =
    request.params.get('disable_guild_select') === 'true'
      ? `<p>Server: <strong>${escapeHtml(guilds.guild(request.guildId ?? '')?.name ?? 'unknown')}</strong></p>`
      : `<label for="${GUILD_FIELD}">Add to server</label>\n<select id="${GUILD_FIELD}" name="${GUILD_FIELD}">\n${guildOptions}\n</select>`;
  const names = permissionNames(request.permissions);
  return htmlReply(
    200,
    htmlPage(
      `Add ${store.state.application.name}`,
      `<h1>${escapeHtml(store.state.application.name)}</h1>
<p class="sub">wants to join a server (local emulator)</p>
<p>With these permissions:</p>
<ul class="scopes">${names.length === 0 ? '<li>none</li>' : names.map((n) => `<li><code>${escapeHtml(n)}</code></li>`).join('')}</ul>
<form method="post" action="/oauth2/authorize">
${hidden}
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(makeConsentToken(ctx.csrfKey, boundParams(request.params), store.now()))}">
<label for="${USER_FIELD}">Act as</label>
<select id="${USER_FIELD}" name="${USER_FIELD}">
${users.map((u) => `<option value="${escapeHtml(u.id)}">${escapeHtml(u.username)}</option>`).join('\n')}
</select>
${guildPicker}
<div class="buttons">
<button type="submit" name="${ACTION_FIELD}" value="cancel">Cancel</button>
<button type="submit" class="primary" name="${ACTION_FIELD}" value="authorize">Authorize</button>
</div>
</form>`,
    ),
  );
}

/** POST /oauth2/authorize with `scope=bot`: the page's answer. */
export function postBotAuthorize(ctx: EmulatorContext, fields: Fields): Reply {
  // The guild comes from the picker unless the request fixed it; the token binds the request's own fields.
  const request = check(ctx, fields);
  const token = fields.get(CSRF_FIELD);
  if (
    token === undefined ||
    !checkConsentToken(ctx.csrfKey, token, boundParams(request.params), ctx.store.now())
  ) {
    throw new HtmlError(400, TITLE, 'The form expired or was changed. Start again.');
  }
  if (fields.get(ACTION_FIELD) === 'cancel') {
    ctx.log.line('oauth2', 'adding the bot was cancelled');
    if (request.redirectUri !== undefined) {
      return redirectReply(
        withQueryParams(request.redirectUri, { error: 'access_denied', state: request.state }),
      );
    }
    return htmlReply(200, htmlPage(TITLE, '<h1>Cancelled</h1><p>The bot was not added.</p>'));
  }
  return approve(ctx, request, fields.get(USER_FIELD) ?? '', fields.get(GUILD_FIELD) ?? '');
}

/** What the form's token binds: the request's parameters, less the guild when the page lets the user pick it. */
function boundParams(params: ReadonlyMap<string, string>): Map<string, string> {
  const bound = new Map(params);
  if (params.get('disable_guild_select') !== 'true') bound.delete(GUILD_FIELD);
  return bound;
}

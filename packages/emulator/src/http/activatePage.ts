import { wireUser } from '../accounts/userObject.js';
import type { EmulatorContext } from '../context.js';
import { checkConsentToken, makeConsentToken } from '../oauth/csrf.js';
import { deviceAuthorizationsOf, displayUserCode, normaliseUserCode } from '../oauth/deviceAuthorizations.js';
import { deviceScreenOf } from '../oauth/deviceScreen.js';
import type { Fields } from './body.js';
import { ACTION_FIELD, CSRF_FIELD, USER_FIELD, scopeItem, userLabel } from './consentPage.js';
import { ACTIVATE_PATH } from './deviceAuthorize.js';
import { HtmlError } from './errors.js';
import { escapeHtml, htmlPage } from './html.js';
import { OriginPolicy } from './originPolicy.js';
import { htmlReply, type Reply } from './replies.js';
import type { Route } from './router.js';

const TITLE = 'Activate a device';
/** The field the player types the code into (RFC 8628 §3.3's `user_code`). */
export const USER_CODE_FIELD = 'user_code';
/** What the code form's token is bound to. */
const ENTER_PARAMS: ReadonlyMap<string, string> = new Map([['page', 'activate']]);

function decideParams(userCode: string): Map<string, string> {
  return new Map([
    ['page', 'activate-decide'],
    ['user_code', userCode],
  ]);
}

function codeForm(ctx: EmulatorContext, prefill: string, message: string | null, status: number): Reply {
  const token = makeConsentToken(ctx.csrfKey, ENTER_PARAMS, ctx.store.now());
  const error = message === null ? '' : `<p class="error" role="alert">${escapeHtml(message)}</p>`;
  return htmlReply(
    status,
    htmlPage(
      TITLE,
      `<h1>Activate a device</h1>
<p class="sub">Enter the code your game or device shows (local emulator)</p>
${error}
<form method="post" action="${ACTIVATE_PATH}">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">
<label for="${USER_CODE_FIELD}">Code</label>
<input id="${USER_CODE_FIELD}" name="${USER_CODE_FIELD}" value="${escapeHtml(prefill)}" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" placeholder="XXXX-XXXX">
<div class="buttons"><button type="submit" class="primary">Continue</button></div>
</form>`,
    ),
  );
}

function consentForm(ctx: EmulatorContext, userCode: string, scopes: string[]): Reply {
  const { store } = ctx;
  const users = store.allUsers().filter((u) => !u.bot && !u.provisional);
  const options = users
    .map((u) => `<option value="${escapeHtml(u.id)}">${escapeHtml(userLabel(u))}</option>`)
    .join('\n');
  const token = makeConsentToken(ctx.csrfKey, decideParams(userCode), store.now());
  const appName = store.state.application.name;
  return htmlReply(
    200,
    htmlPage(
      `Authorize ${appName}`,
      `<h1>${escapeHtml(appName)}</h1>
<p class="sub">wants to access your account on the device showing <code class="user-code">${escapeHtml(displayUserCode(userCode))}</code> (local emulator)</p>
<p>This will allow the application to:</p>
<ul class="scopes">
${scopes.map(scopeItem).join('\n')}
</ul>
<form method="post" action="${ACTIVATE_PATH}/decide">
<input type="hidden" name="${USER_CODE_FIELD}" value="${escapeHtml(userCode)}">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">
<label for="${USER_FIELD}">Sign in as</label>
<select id="${USER_FIELD}" name="${USER_FIELD}">
${options}
</select>
<div class="buttons">
<button type="submit" name="${ACTION_FIELD}" value="deny">Deny</button>
<button type="submit" class="primary" name="${ACTION_FIELD}" value="approve"${users.length > 0 ? '' : ' disabled'}>Authorize</button>
</div>
</form>`,
    ),
  );
}

function donePage(heading: string, text: string): Reply {
  return htmlReply(
    200,
    htmlPage(TITLE, `<h1 class="done">${escapeHtml(heading)}</h1>\n<p>${escapeHtml(text)}</p>`),
  );
}

/** Step 1: the code as typed. A wrong one counts against the emulator-wide limit on guesses. */
function enterCode(ctx: EmulatorContext, fields: Fields): Reply {
  const token = fields.get(CSRF_FIELD);
  if (token === undefined || !checkConsentToken(ctx.csrfKey, token, ENTER_PARAMS, ctx.store.now())) {
    throw new HtmlError(400, TITLE, 'The form expired or was changed. Enter the code again.');
  }
  const { authorizations, guesses } = deviceAuthorizationsOf(ctx, () => ctx.store.now());
  const wait = guesses.retryAfterSeconds();
  if (wait > 0) {
    ctx.log.line('oauth2', 'device code entry refused: too many wrong codes');
    return codeForm(ctx, '', `Too many wrong codes. Try again in ${wait} seconds.`, 429);
  }
  const typed = fields.get(USER_CODE_FIELD) ?? '';
  const code = normaliseUserCode(typed);
  const found = code === undefined ? undefined : authorizations.pendingByUserCode(code);
  if (code === undefined || !found) {
    guesses.miss();
    // The typed text is not logged: a near miss of a live code is as good as the code.
    ctx.log.line('oauth2', 'a wrong or expired device code was entered');
    return codeForm(
      ctx,
      typed.slice(0, 32),
      'That code is not valid or has expired. Check your device.',
      400,
    );
  }
  return consentForm(ctx, code, found.scopes);
}

/** Step 2: the player approves or denies, as one of the emulator's users. */
function decide(ctx: EmulatorContext, fields: Fields): Reply {
  const code = normaliseUserCode(fields.get(USER_CODE_FIELD) ?? '');
  const token = fields.get(CSRF_FIELD);
  if (
    code === undefined ||
    token === undefined ||
    !checkConsentToken(ctx.csrfKey, token, decideParams(code), ctx.store.now())
  ) {
    throw new HtmlError(400, TITLE, 'The form expired or was changed. Enter the code again.');
  }
  const { store } = ctx;
  const { authorizations } = deviceAuthorizationsOf(ctx, () => store.now());
  const screen = deviceScreenOf(ctx, () => store.now());
  const action = fields.get(ACTION_FIELD);
  if (action === 'deny') {
    if (!authorizations.decide(code, 'denied')) throw expired();
    ctx.log.line('oauth2', 'a device authorization was denied');
    screen.answered(code, 'denied');
    return donePage('Request denied', 'The device will not be signed in. You can close this page.');
  }
  if (action !== 'approve') throw new HtmlError(400, TITLE, 'Choose Authorize or Deny.');
  const userId = fields.get(USER_FIELD);
  const user = userId === undefined ? undefined : store.user(userId);
  if (!user || user.bot || user.provisional) throw new HtmlError(400, TITLE, 'Choose a user to sign in as.');
  if (user.banned) throw new HtmlError(403, TITLE, 'This account is banned.');
  const scopes = authorizations.pendingByUserCode(code)?.scopes;
  if (!scopes || !authorizations.decide(code, { approvedBy: user.id })) throw expired();
  ctx.log.line('oauth2', `${user.username} approved a device authorization for ${scopes.join(' ')}`);
  ctx.webhooks.emit('APPLICATION_AUTHORIZED', { integration_type: 1, user: wireUser(user), scopes });
  screen.answered(code, 'approved');
  return donePage('Device connected', 'Return to your device: it signs in within a few seconds.');
}

function expired(): HtmlError {
  return new HtmlError(400, TITLE, 'That code has expired or was already used. Start again on your device.');
}

/**
 * The verification page of the device authorization grant (`/activate`, the platform's discord.com/activate):
 * the player types the code (prefilled from `verification_uri_complete`, and confirmed by the player, as
 * RFC 8628 §5.4 advises), sees the application and its scopes, picks who signs in and approves or denies.
 * Forms carry tokens bound to their step; wrong codes are limited (see GuessLimiter).
 */
export function activateRoutes(ctx: EmulatorContext): Route[] {
  const policy = new OriginPolicy(ctx.urls.http);
  return [
    {
      method: 'GET',
      scope: 'root',
      pattern: ACTIVATE_PATH,
      style: 'html',
      handle: (req) => {
        policy.guardPage(req.raw, { title: TITLE, page: ACTIVATE_PATH, changes: false });
        const prefill = req.query().get(USER_CODE_FIELD) ?? '';
        return codeForm(ctx, prefill.slice(0, 32), null, 200);
      },
    },
    {
      method: 'POST',
      scope: 'root',
      pattern: ACTIVATE_PATH,
      style: 'html',
      handle: async (req) => {
        policy.guardPage(req.raw, { title: TITLE, page: ACTIVATE_PATH, changes: true });
        return enterCode(ctx, await req.form());
      },
    },
    {
      method: 'POST',
      scope: 'root',
      pattern: `${ACTIVATE_PATH}/decide`,
      style: 'html',
      handle: async (req) => {
        policy.guardPage(req.raw, { title: TITLE, page: ACTIVATE_PATH, changes: true });
        return decide(ctx, await req.form());
      },
    },
  ];
}

import { SCOPE_DESCRIPTIONS, scopeMembers } from '../store/scopes.js';
import type { UserRecord } from '../store/types.js';
import type { AuthorizeRequest } from './authorizeRequest.js';
import { escapeHtml, htmlPage } from './html.js';

/** Name of the consent form's anti-CSRF field. */
export const CSRF_FIELD = 'csrf_token';
/** Name of the user picker. */
export const USER_FIELD = 'user_id';
/** Name of the submit buttons; the value is `authorize` or `cancel`. */
export const ACTION_FIELD = 'action';

/** What the consent page shows. */
export interface ConsentPageInput {
  applicationName: string;
  request: AuthorizeRequest;
  users: UserRecord[];
  selectedUserId: string | undefined;
  csrfToken: string;
}

/** How a user reads in a "Sign in as" picker. */
export function userLabel(user: UserRecord): string {
  const tags = [user.provisional ? 'provisional' : '', user.banned ? 'banned' : ''].filter(Boolean);
  const name = user.globalName ?? user.username;
  return `${name} (@${user.username})${tags.length > 0 ? ` — ${tags.join(', ')}` : ''}`;
}

/** One requested scope as a list item, with the scopes it stands for. */
export function scopeItem(scope: string): string {
  const members = scopeMembers(scope);
  const nested =
    members.length > 0
      ? `<ul>${members.map((m) => `<li><code>${escapeHtml(m)}</code> ${escapeHtml(SCOPE_DESCRIPTIONS[m] ?? '')}</li>`).join('')}</ul>`
      : '';
  return `<li><strong>${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)}</strong> <code>${escapeHtml(scope)}</code>${nested}</li>`;
}

/**
 * The consent page: the application, what it asks for, who signs in, and Authorize / Cancel. The form
 * posts the original parameters back with a token bound to them; everything echoed is escaped.
 */
export function renderConsentPage(input: ConsentPageInput): string {
  const { request } = input;
  const hidden = [...request.params.entries()]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const options = input.users
    .map((user) => {
      const selected = user.id === input.selectedUserId ? ' selected' : '';
      return `<option value="${escapeHtml(user.id)}"${selected}>${escapeHtml(userLabel(user))}</option>`;
    })
    .join('\n');
  const picker =
    input.users.length > 0
      ? `<label for="${USER_FIELD}">Sign in as</label>\n<select id="${USER_FIELD}" name="${USER_FIELD}">\n${options}\n</select>`
      : '<p class="error">The emulator has no users to sign in with. Start it with --users 1 or more.</p>';
  const authorizeDisabled = input.users.length > 0 ? '' : ' disabled';
  return htmlPage(
    `Authorize ${input.applicationName}`,
    `<h1>${escapeHtml(input.applicationName)}</h1>
<p class="sub">wants to access your account (local emulator)</p>
<p>This will allow the application to:</p>
<ul class="scopes">
${request.scopes.map(scopeItem).join('\n')}
</ul>
<p class="muted target">After you decide, you will be sent to <code>${escapeHtml(request.redirectUri)}</code></p>
<form method="post" action="/oauth2/authorize">
${hidden}
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(input.csrfToken)}">
${picker}
<div class="buttons">
<button type="submit" name="${ACTION_FIELD}" value="cancel">Cancel</button>
<button type="submit" class="primary" name="${ACTION_FIELD}" value="authorize"${authorizeDisabled}>Authorize</button>
</div>
</form>`,
  );
}

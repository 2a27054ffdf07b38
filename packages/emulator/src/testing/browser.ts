import { isLoopbackHttpUrl } from '../oauth/redirectUris.js';
import type { BrowserOptions } from '../types.js';
import { answerDeviceVerification, isDeviceVerificationUrl } from './deviceBrowser.js';

/** A consent form as found in the page. */
export interface ConsentForm {
  /** Where the form posts to (relative to the page). */
  action: string;
  /** The hidden fields, in page order. */
  fields: Map<string, string>;
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Reads the consent form of the emulator's consent page; null when the page has none. */
export function parseConsentForm(html: string): ConsentForm | null {
  const form = /<form\s+method="post"\s+action="([^"]*)">([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const fields = new Map<string, string>();
  for (const input of (form[2] ?? '').matchAll(
    /<input\s+type="hidden"\s+name="([^"]*)"\s+value="([^"]*)">/gi,
  )) {
    fields.set(unescapeHtml(input[1] ?? ''), unescapeHtml(input[2] ?? ''));
  }
  return { action: unescapeHtml(form[1] ?? ''), fields };
}

/** The message of an emulator error page, as plain text. */
export function errorPageMessage(html: string): string {
  const match = /<div class="error">[\s\S]*?<p>([\s\S]*?)<\/p>/i.exec(html);
  return match ? unescapeHtml(match[1] ?? '') : 'unknown error';
}

/** The user the simulated browser signs in as. */
export interface BrowserUser {
  id: string;
  username: string;
}

/**
 * Makes an "opener" that plays a user in a browser: it loads the authorize URL, answers the consent page
 * (or lets auto-consent redirect at once), and follows the final redirect — a loopback `http` URL is
 * loaded (that is the SDK's listener), a custom-scheme URL is handed to `onCustomSchemeRedirect`.
 * It rejects with the page's message when the emulator shows an error page. Given a device verification URL
 * (`verification_uri_complete`), it enters that code and approves it (denies it with `action: 'cancel'`).
 */
export function createBrowserOpener(
  user: BrowserUser,
  autoConsent: boolean,
  options: BrowserOptions = {},
): (url: string) => Promise<void> {
  const action = options.action ?? 'authorize';

  const follow = async (location: string | null): Promise<void> => {
    if (location === null) throw new Error('browserAs: the authorize endpoint redirected without a Location');
    if (isLoopbackHttpUrl(location)) {
      const response = await fetch(location, { redirect: 'manual' });
      await response.arrayBuffer();
      return;
    }
    if (/^https?:/i.test(location)) {
      throw new Error(`browserAs: refusing to follow a redirect off this machine: ${location}`);
    }
    options.onCustomSchemeRedirect?.(location);
  };

  return async (authorizeUrl: string): Promise<void> => {
    const url = new URL(authorizeUrl);
    if (isDeviceVerificationUrl(url)) {
      await answerDeviceVerification(url, user, action, parseConsentForm, errorPageMessage);
      return;
    }
    if (autoConsent && action === 'authorize') url.searchParams.set('login_hint', user.username);
    // With auto-consent on, only prompt=consent brings up the page that has a Cancel button.
    if (autoConsent && action === 'cancel') url.searchParams.set('prompt', 'consent');
    const page = await fetch(url, { redirect: 'manual' });
    if (page.status === 302) {
      await page.arrayBuffer();
      await follow(page.headers.get('location'));
      return;
    }
    const html = await page.text();
    if (page.status !== 200) {
      throw new Error(
        `browserAs: the authorize page shows an error (${page.status}): ${errorPageMessage(html)}`,
      );
    }
    const form = parseConsentForm(html);
    if (!form) throw new Error('browserAs: the authorize page has no consent form');
    const body = new URLSearchParams([...form.fields.entries()]);
    body.set('user_id', user.id);
    body.set('action', action);
    const submitted = await fetch(new URL(form.action, url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      redirect: 'manual',
    });
    if (submitted.status !== 302) {
      const text = await submitted.text();
      throw new Error(
        `browserAs: the consent form was refused (${submitted.status}): ${errorPageMessage(text)}`,
      );
    }
    await submitted.arrayBuffer();
    await follow(submitted.headers.get('location'));
  };
}

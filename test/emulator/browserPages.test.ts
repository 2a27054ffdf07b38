import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { authorizeUrl, pkce, rawRequest } from './helpers.js';
import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

// The store and consent pages answer browsers, so a hostile page is the threat: one that reaches the port
// under its own host name (DNS rebinding), or posts a form from another site.

const { running } = closeAfterEach();

/** The Host a DNS-rebinding page sends: its own name, on the emulator's port. */
function reboundHost(emu: Emulator): string {
  return `rebind.evil.example:${new URL(emu.http).port}`;
}

const FORM = 'application/x-www-form-urlencoded';

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The hidden fields of a page's first form, as a browser would post them. */
function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    const name = unescapeHtml(match[1] ?? '');
    if (!(name in fields)) fields[name] = unescapeHtml(match[2] ?? '');
  }
  return fields;
}

async function storeToken(emu: Emulator): Promise<string> {
  const html = await (await fetch(`${emu.http}/store`)).text();
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (token === undefined) throw new Error('the store page has no form token');
  return token;
}

/** A store purchase as a browser form posts it, with `headers` on top (Host, Origin, Sec-Fetch-Site). */
function buy(
  emu: Emulator,
  fields: { csrf_token: string; sku_id: string; user_id: string },
  headers: Record<string, string> = {},
): ReturnType<typeof rawRequest> {
  return rawRequest(emu, {
    method: 'POST',
    path: '/store/buy',
    headers: { 'Content-Type': FORM, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function storeWithSku(): Promise<{ emu: Emulator; skuId: string; bob: string }> {
  const { emu } = await loggedEmulator(running, { users: 2 });
  const sku = emu.createSku({ name: 'Gems', type: 'consumable' });
  return { emu, skuId: sku.id, bob: emu.users[1]?.id ?? '' };
}

describe('the store page against hostile pages', () => {
  it('answers 421 to a foreign Host, for the page and for a purchase, and nothing is bought', async () => {
    const { emu, skuId, bob } = await storeWithSku();
    const host = reboundHost(emu);
    const page = await rawRequest(emu, { method: 'GET', path: '/store', headers: { Host: host } });
    expect(page.status).toBe(421);
    expect(page.body).not.toContain('csrf_token');
    const token = await storeToken(emu);
    const bought = await buy(
      emu,
      { csrf_token: token, sku_id: skuId, user_id: bob },
      { Host: host, Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' },
    );
    expect(bought.status).toBe(421);
    expect(emu.entitlements()).toEqual([]);
  });

  it('refuses a cross-site purchase with 403, by Origin or by Sec-Fetch-Site, and nothing is bought', async () => {
    const { emu, skuId, bob } = await storeWithSku();
    const token = await storeToken(emu);
    const fields = { csrf_token: token, sku_id: skuId, user_id: bob };
    expect((await buy(emu, fields, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await buy(emu, fields, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await buy(emu, fields, { Origin: 'null' })).status).toBe(403);
    expect(emu.entitlements()).toEqual([]);
    // The page's own form still buys, under any of the emulator's names.
    const port = new URL(emu.http).port;
    const own = await buy(emu, fields, {
      Host: `localhost:${port}`,
      Origin: `http://localhost:${port}`,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(own.status).toBe(302);
    expect(emu.entitlements()).toHaveLength(1);
  });

  it('takes each form token once: a second purchase with it is refused, a fresh page buys again', async () => {
    const { emu, skuId, bob } = await storeWithSku();
    const token = await storeToken(emu);
    const fields = { csrf_token: token, sku_id: skuId, user_id: bob };
    expect((await buy(emu, fields)).status).toBe(302);
    const again = await buy(emu, fields);
    expect([again.status, again.body]).toEqual([400, expect.stringContaining('Open the store again')]);
    expect(emu.entitlements()).toHaveLength(1);
    const fresh = await storeToken(emu);
    expect(fresh).not.toBe(token);
    expect((await buy(emu, { ...fields, csrf_token: fresh })).status).toBe(302);
    expect(emu.entitlements()).toHaveLength(2);
  });
});

describe('the consent page against hostile pages', () => {
  it('answers 421 to a foreign Host and 403 to a cross-site form; only its own form signs in', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, autoConsent: false });
    const target = new URL(
      authorizeUrl(emu, {
        redirectUri: 'http://127.0.0.1:5555/callback',
        challenge: pkce().challenge,
        state: 'xyz',
      }),
    );
    const path = `${target.pathname}${target.search}`;
    const host = reboundHost(emu);
    const page = await rawRequest(emu, { method: 'GET', path, headers: { Host: host } });
    expect(page.status).toBe(421);
    expect(page.body).not.toContain('csrf_token');
    const bot = `/oauth2/authorize?client_id=${emu.applicationId}&scope=bot&permissions=0`;
    expect((await rawRequest(emu, { method: 'GET', path: bot, headers: { Host: host } })).status).toBe(421);

    const fields = hiddenFields(await (await fetch(target)).text());
    expect(fields.csrf_token).toBeDefined();
    const consent = (headers: Record<string, string>): ReturnType<typeof rawRequest> =>
      rawRequest(emu, {
        method: 'POST',
        path: '/oauth2/authorize',
        headers: { 'Content-Type': FORM, ...headers },
        body: new URLSearchParams({
          ...fields,
          user_id: emu.users[0]?.id ?? '',
          action: 'authorize',
        }).toString(),
      });
    const rebound = await consent({ Host: host, Origin: `http://${host}` });
    expect([rebound.status, rebound.headers.location]).toEqual([421, undefined]);
    const crossOrigin = await consent({ Origin: 'https://evil.example' });
    expect([crossOrigin.status, crossOrigin.headers.location]).toEqual([403, undefined]);
    const crossSite = await consent({ 'Sec-Fetch-Site': 'cross-site' });
    expect([crossSite.status, crossSite.headers.location]).toEqual([403, undefined]);
    const own = await consent({ Origin: emu.http, 'Sec-Fetch-Site': 'same-origin' });
    expect(own.status).toBe(302);
    expect(new URL(own.headers.location ?? '').searchParams.get('code')).toBeTruthy();
  });
});

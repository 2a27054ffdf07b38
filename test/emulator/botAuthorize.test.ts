import { describe, expect, it } from 'vitest';

import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running } = closeAfterEach();

/** The hidden inputs of a page's form, by name. */
function formOf(html: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(m[1] ?? '', (m[2] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
  }
  return fields;
}

describe('adding the bot with the OAuth2 bot scope', () => {
  it('shows the add-to-server page, and adds the bot with its permissions as someone with Manage Server', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, autoConsent: false, seedGuild: false });
    const guild = emu.createGuild({ name: 'Raiders', owner: 'alice', members: ['bob'] });
    const permissions = ((1n << 10n) | (1n << 11n)).toString();
    const query = new URLSearchParams({
      client_id: emu.applicationId,
      scope: 'bot applications.commands',
      permissions,
    });
    const page = await fetch(`${emu.http}/oauth2/authorize?${query.toString()}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('VIEW_CHANNEL');
    expect(html).toContain('<option value="' + guild.id + '">Raiders</option>');
    const post = (user: string, extra: Record<string, string> = {}) => {
      const form = new URLSearchParams([...formOf(html).entries()]);
      form.set('user_id', emu.users.find((u) => u.username === user)?.id ?? '');
      form.set('guild_id', guild.id);
      form.set('action', 'authorize');
      for (const [k, v] of Object.entries(extra)) form.set(k, v);
      return fetch(`${emu.http}/oauth2/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    };
    const bob = await post('bob');
    expect(bob.status).toBe(403);
    expect(await bob.text()).toContain('Manage Server');
    const tampered = await post('alice', { permissions: '8' });
    expect(tampered.status).toBe(400);
    const alice = await post('alice');
    expect(alice.status).toBe(200);
    const added = emu.guilds().find((g) => g.id === guild.id);
    expect(added?.members[emu.applicationId]).toBe(permissions);
    expect(added?.roles.find((r) => r.managed)).toMatchObject({ name: 'sdkpp Demo Game', permissions });
  });

  it('adds the bot at once with auto consent and guild_id, and refuses other scopes beside bot', async () => {
    const { emu } = await loggedEmulator(running, { users: 2, seedGuild: false });
    const guild = emu.createGuild({ name: 'Quick', owner: 'alice' });
    const base = { client_id: emu.applicationId, scope: 'bot', guild_id: guild.id, permissions: '0' };
    const done = await fetch(`${emu.http}/oauth2/authorize?${new URLSearchParams(base).toString()}`);
    expect(done.status).toBe(200);
    expect(Object.keys(emu.guilds()[0]?.members ?? {})).toContain(emu.applicationId);
    const mixed = await fetch(
      `${emu.http}/oauth2/authorize?${new URLSearchParams({ ...base, scope: 'bot identify' }).toString()}`,
    );
    expect(mixed.status).toBe(400);
    expect(await mixed.text()).toContain('separate sign-in');
  });
});

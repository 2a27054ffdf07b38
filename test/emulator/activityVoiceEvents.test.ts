import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Frame, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';

import { writeWavFile } from '../../packages/emulator/src/testing/wav.js';
import { emulatorFor } from '../integration/helpers.js';
import { sharedChromium } from '../setup/browser.js';
import { voiceChannel } from './activityHostHelpers.js';
import { act, pageToken } from './dashboardHelpers.js';
import { probeFrame, sdkProbes, signInProbe, type ProbeWindow } from './sdkProbe.js';
import { tone, until } from './voiceChannelHelpers.js';

const SECRET = 'voice-events-client-secret';
const browser = sharedChromium();
const startProbe = sdkProbes();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-activity-voice-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The events the frame's SDK delivered (after its own schema check), as `[evt, data]`. */
type Heard = [string, Record<string, unknown>][];

async function open(url: string, problems: string[]): Promise<{ page: Page; frame: Frame }> {
  const page = await browser().newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(url);
  return { page, frame: await probeFrame(page) };
}

/** Subscribes in the frame; resolves with the SUBSCRIBE's error code, or 'ok'. */
function subscribe(frame: Frame, evt: string, args?: Record<string, unknown>): Promise<number | 'ok'> {
  return frame.evaluate(
    async ({ evt, args }) => {
      const w = globalThis as unknown as ProbeWindow & { heard?: [string, unknown][] };
      w.heard ??= [];
      const heard = w.heard;
      try {
        await w.sdk.subscribe(evt as never, (data: unknown) => heard.push([evt, data]), args as never);
        return 'ok' as const;
      } catch (error) {
        return (error as { code: number }).code;
      }
    },
    { evt, args },
  );
}

/**
 * A SUBSCRIBE sent through the SDK's own transport without adding a listener (the SDK keeps a listener even when
 * its SUBSCRIBE fails, and sends no second one): the ERROR's code, or 'ok'.
 */
function trySubscribe(frame: Frame, evt: string, args?: Record<string, unknown>): Promise<number | 'ok'> {
  return frame.evaluate(
    async ({ evt, args }) => {
      const sdk = (globalThis as unknown as ProbeWindow).sdk as unknown as {
        sendCommand(payload: unknown): Promise<unknown>;
      };
      try {
        await sdk.sendCommand({ cmd: 'SUBSCRIBE', evt, args });
        return 'ok' as const;
      } catch (error) {
        return (error as { code: number }).code;
      }
    },
    { evt, args },
  );
}

function heard(frame: Frame): Promise<Heard> {
  return frame.evaluate(() => (globalThis as unknown as { heard?: Heard }).heard ?? []);
}

describe('voice, member and layout events and GET_CHANNEL in the Activity host (Chromium)', () => {
  it('gates them on rpc.voice.read, guilds.members.read and guilds, and sends what the SDK parses', async () => {
    const emu = await emulatorFor({
      users: 3,
      clientSecret: SECRET,
      autoConsent: true,
      voice: { certificateDir: dir },
    });
    const probe = await startProbe(emu.applicationId);
    emu.setActivityUrlMappings([{ prefix: '/', target: probe.url }]);
    const voice = voiceChannel(emu);
    const guildId = emu.guilds()[0]?.id ?? '';
    const [alice, bob, carol] = emu.users;
    const problems: string[] = [];
    const launch = emu.launchActivity({ user: 'alice', channel: voice });
    const { frame } = await open(launch.url, problems);

    // Before AUTHENTICATE with the scopes: 4006, for the events and for GET_CHANNEL.
    expect(await trySubscribe(frame, 'VOICE_STATE_UPDATE', { channel_id: voice })).toBe(4006);
    expect(await trySubscribe(frame, 'SPEAKING_START', { channel_id: voice })).toBe(4006);
    expect(await trySubscribe(frame, 'CURRENT_GUILD_MEMBER_UPDATE', { guild_id: guildId })).toBe(4006);
    // The two scopes are known scopes now: AUTHORIZE grants them.
    const granted = await signInProbe(frame, emu.api, { id: emu.applicationId, secret: SECRET }, [
      'identify',
      'guilds',
      'rpc.voice.read',
      'guilds.members.read',
    ]);
    expect(granted).toEqual(expect.arrayContaining(['rpc.voice.read', 'guilds.members.read', 'guilds']));
    expect(await trySubscribe(frame, 'VOICE_STATE_UPDATE', {})).toBe(4000);
    expect(await trySubscribe(frame, 'VOICE_STATE_UPDATE', { channel_id: '1' })).toBe(4005);
    expect(await trySubscribe(frame, 'CURRENT_GUILD_MEMBER_UPDATE', { guild_id: '1' })).toBe(4003);
    // GET_CHANNEL of a channel that is not there: 4005.
    expect(await trySubscribe(frame, 'ACTIVITY_LAYOUT_MODE_UPDATE')).toBe('ok');
    for (const evt of ['VOICE_STATE_UPDATE', 'SPEAKING_START', 'SPEAKING_STOP'])
      expect(await subscribe(frame, evt, { channel_id: voice })).toBe('ok');
    expect(await subscribe(frame, 'CURRENT_GUILD_MEMBER_UPDATE', { guild_id: guildId })).toBe('ok');
    expect(await subscribe(frame, 'ACTIVITY_LAYOUT_MODE_UPDATE')).toBe('ok');
    expect(await subscribe(frame, 'ORIENTATION_UPDATE')).toBe('ok');

    // Bob joins the voice channel and speaks (a tone): his voice state, then his speaking ops, reach the SDK.
    const play = path.join(dir, 'tone.wav');
    writeWavFile(play, tone(1, 440));
    // Carol listens first (a voice is sent only to someone who hears it), then Bob speaks.
    const carolInVoice = emu.joinVoiceChannel({ user: 'carol', channel: voice });
    await until(() => emu.voice.calls()[0]?.participants[0]?.voice?.connected === true, 'carol connected');
    const bobInVoice = emu.joinVoiceChannel({ user: 'bob', channel: voice, play });
    const waitFor = async (what: string, test: (h: Heard) => boolean): Promise<Heard> => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const now = await heard(frame);
        if (test(now)) return now;
        if (Date.now() > deadline) throw new Error(`the frame never heard ${what}: ${JSON.stringify(now)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    let events = await waitFor('SPEAKING_STOP', (h) => h.some(([evt]) => evt === 'SPEAKING_STOP'));
    const state = events.find(
      ([evt, data]) => evt === 'VOICE_STATE_UPDATE' && (data.user as { id: string }).id === bob?.id,
    )?.[1];
    expect(state).toMatchObject({
      user: { id: bob?.id, username: 'bob', bot: false },
      voice_state: { mute: false, deaf: false, self_mute: false, self_deaf: false, suppress: false },
      mute: false,
      volume: 100,
    });
    const speaking = events.filter(([evt]) => evt.startsWith('SPEAKING_'));
    expect(speaking[0]).toEqual(['SPEAKING_START', { channel_id: voice, user_id: bob?.id }]);
    expect(speaking.at(-1)).toEqual(['SPEAKING_STOP', { channel_id: voice, user_id: bob?.id }]);

    // GET_CHANNEL: the voice channel with Bob's voice state (the SDK parsed it with its own schema).
    const channel = await frame.evaluate(
      (id) => (globalThis as unknown as ProbeWindow).sdk.commands.getChannel({ channel_id: id }),
      voice,
    );
    expect(channel).toMatchObject({ id: voice, type: 2, guild_id: guildId, messages: [] });
    expect(channel.voice_states.map((s) => s.user.id).sort()).toEqual([bob?.id, carol?.id].sort());
    await bobInVoice.leave();
    await carolInVoice.leave();

    // Alice's member record changes: CURRENT_GUILD_MEMBER_UPDATE for her guild.
    emu.setMemberRoles(guildId, 'alice', []);
    events = await waitFor('CURRENT_GUILD_MEMBER_UPDATE', (h) =>
      h.some(([evt]) => evt === 'CURRENT_GUILD_MEMBER_UPDATE'),
    );
    expect(events.find(([evt]) => evt === 'CURRENT_GUILD_MEMBER_UPDATE')?.[1]).toMatchObject({
      user_id: alice?.id,
      guild_id: guildId,
    });

    // The dashboard's layout control: picture in picture, then portrait.
    const headers = { 'X-Dashboard-Token': await pageToken(emu) };
    const pip = await act(
      emu,
      'activity/layout',
      { instance: launch.instanceId, layoutMode: 'pip' },
      headers,
    );
    expect(pip).toMatchObject({ status: 200, json: { sent: 1 } });
    await act(emu, 'activity/layout', { instance: launch.instanceId, orientation: 'portrait' }, headers);
    events = await waitFor('ORIENTATION_UPDATE', (h) => h.some(([evt]) => evt === 'ORIENTATION_UPDATE'));
    expect(events.find(([evt]) => evt === 'ACTIVITY_LAYOUT_MODE_UPDATE')?.[1]).toEqual({ layout_mode: 1 });
    expect(events.find(([evt]) => evt === 'ORIENTATION_UPDATE')?.[1]).toEqual({
      screen_orientation: 0,
      orientation: 'portrait',
    });
    const bad = await act(
      emu,
      'activity/layout',
      { instance: launch.instanceId, layoutMode: 'huge' },
      headers,
    );
    expect(bad.status).toBe(400);
    expect(problems).toEqual([]);
  }, 90_000);
});

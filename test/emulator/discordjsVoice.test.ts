import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { readWavFile } from '../../packages/protocol/src/index.js';
import { writeWavFile } from '../../packages/emulator/src/testing/wav.js';
import { call, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';
import { seededVoice, tone, toneLevel, until } from './voiceChannelHelpers.js';

const { running } = closeAfterEach();
const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-djs-voice-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const BOT = fileURLToPath(new URL('./fixtures/voiceBot.mjs', import.meta.url));

interface BotLine {
  event: string;
  joinMs?: number;
  daveProtocolVersion?: number | null;
  users?: { userId: string; packets: number; file: string }[];
}

describe('a discord.js bot with @discordjs/voice in a guild voice channel', () => {
  it('joins a seeded voice channel over wss:// with DAVE, plays a tone a user records, and receives the user', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 2, voice: { certificateDir: dir } });
    const { guildId, voiceId } = seededVoice(emu);
    // Alice speaks 660 Hz for 12 s and records what she hears; the bot plays 440 Hz for 3 s.
    const alicePlays = path.join(dir, 'alice.wav');
    const aliceHeard = path.join(dir, 'alice-heard.wav');
    writeWavFile(alicePlays, tone(12, 660));
    const botPlays = path.join(dir, 'bot.pcm');
    const botTone = tone(3, 440);
    writeFileSync(botPlays, Buffer.from(botTone.buffer, botTone.byteOffset, botTone.byteLength));
    const alice = emu.joinVoiceChannel({
      user: 'alice',
      channel: voiceId,
      play: alicePlays,
      record: aliceHeard,
    });

    const child = spawn(process.execPath, [BOT], {
      env: {
        ...process.env,
        NODE_EXTRA_CA_CERTS: emu.voiceCaFile ?? '',
        SDKPP_EMULATOR_HTTP: emu.http,
        SDKPP_BOT_TOKEN: emu.botToken,
        GUILD: guildId,
        CHANNEL: voiceId,
        PLAY: botPlays,
        OUT: dir,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const lines: BotLine[] = [];
    const waiters: { event: string; resolve: (line: BotLine) => void }[] = [];
    createInterface({ input: child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as BotLine;
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.event === line.event)) waiter.resolve(line);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const next = (event: string, timeoutMs = 30_000): Promise<BotLine> =>
      new Promise((resolve, reject) => {
        const seen = lines.find((l) => l.event === event);
        if (seen) {
          resolve(seen);
          return;
        }
        const timer = setTimeout(() => {
          reject(
            new Error(`the bot did not say ${event}; stderr: ${stderr}\nlog: ${logs.slice(-15).join('\n')}`),
          );
        }, timeoutMs);
        waiters.push({
          event,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        void exited.then((code) => {
          reject(new Error(`the bot exited (${String(code)}) before ${event}; stderr: ${stderr}`));
        });
      });
    try {
      const ready = await next('ready');
      await next('played');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const participants = emu.voice.calls()[0]?.participants ?? [];
      expect(participants.map((p) => [p.userId, p.voice?.daveProtocolVersion])).toEqual(
        expect.arrayContaining([
          [emu.applicationId, 1],
          [emu.users.find((u) => u.username === 'alice')?.id, 1],
        ]),
      );
      // Moved to another channel by a moderator, the bot's connection follows (a new voice server).
      const bot = `Bot ${emu.botToken}`;
      const raid = (
        await call<{ id: string }>(emu, bot, 'POST', `/guilds/${guildId}/channels`, {
          name: 'Raid',
          type: 2,
        })
      ).json.id;
      emu.setChannelOverwrite(raid, '@everyone', { allow: (1n << 20n) | (1n << 21n) });
      const role = emu.createRole(guildId, { name: 'Mover', permissions: 1n << 24n });
      emu.setMemberRoles(guildId, '@bot', [role.id]);
      const moved = await call(emu, bot, 'PATCH', `/guilds/${guildId}/members/${emu.applicationId}`, {
        channel_id: raid,
      });
      expect(moved.status).toBe(200);
      await until(() => {
        const inRaid = emu.voice.calls().find((c) => c.channelId === raid)?.participants[0];
        return (
          inRaid?.userId === emu.applicationId &&
          inRaid.voice?.mode !== undefined &&
          inRaid.voice.mode !== null
        );
      }, "the bot's connection in Raid");
      child.stdin.write('stop\n');
      const received = await next('received');
      expect(await exited).toBe(0);
      await alice.leave();

      const heard = toneLevel(readWavFile(aliceHeard), 440);
      const fromAlice = received.users?.[0];
      const botHeardPcm = readFileSync(fromAlice?.file ?? '');
      const botHeard = new Int16Array(
        botHeardPcm.buffer,
        botHeardPcm.byteOffset,
        botHeardPcm.byteLength >> 1,
      );
      const aliceLevel = toneLevel(botHeard, 660);
      console.log(
        `discord.js voice: join ${String(ready.joinMs)} ms, alice heard the bot's tone at ${heard.toFixed(3)}, ` +
          `the bot received ${String(fromAlice?.packets)} packets of alice, her tone at ${aliceLevel.toFixed(3)}`,
      );
      expect(fromAlice?.userId).toBe(emu.users.find((u) => u.username === 'alice')?.id);
      // Both tones were sent at 0.25 of full scale.
      expect(heard).toBeGreaterThan(0.1);
      expect(aliceLevel).toBeGreaterThan(0.1);
      expect(fromAlice?.packets).toBeGreaterThan(100);
    } finally {
      child.kill();
    }
  }, 90_000);
});

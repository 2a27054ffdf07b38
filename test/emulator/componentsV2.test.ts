import {
  AttachmentBuilder,
  Client,
  ContainerBuilder,
  Events,
  FileBuilder,
  GatewayIntentBits,
  MediaGalleryBuilder,
  MediaGalleryItemBuilder,
  MessageFlags,
  SectionBuilder,
  SeparatorBuilder,
  SeparatorSpacingSize,
  TextDisplayBuilder,
  ThumbnailBuilder,
  type TextChannel,
} from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { call, closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

type Json = Record<string, unknown> & Record<string, unknown>[];
const { running, cleanups } = closeAfterEach();

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

function general(emu: Emulator): string {
  return emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
}

/** A discord.js v14 bot logged in to the emulator, with #general. */
async function bot(emu: Emulator): Promise<{ client: Client; channel: TextChannel }> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${emu.http}/api` } });
  cleanups.push(() => void client.destroy());
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(emu.botToken);
  await ready;
  const channel = await client.channels.fetch(general(emu));
  return { client, channel: channel as TextChannel };
}

describe('Components V2 messages', () => {
  it('sends Container, Section, Thumbnail, Media Gallery, File and Separator from discord.js; attachments show only through them', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    const { channel } = await bot(emu);
    const container = new ContainerBuilder()
      .setAccentColor(0x5865f2)
      .addTextDisplayComponents(new TextDisplayBuilder().setContent('# Match report'))
      .addSectionComponents(
        new SectionBuilder()
          .addTextDisplayComponents(new TextDisplayBuilder().setContent('MVP: alice'))
          .setThumbnailAccessory(new ThumbnailBuilder().setURL('attachment://mvp.png').setDescription('MVP')),
      )
      .addSeparatorComponents(new SeparatorBuilder().setDivider(true).setSpacing(SeparatorSpacingSize.Large))
      .addMediaGalleryComponents(
        new MediaGalleryBuilder().addItems(
          new MediaGalleryItemBuilder().setURL('attachment://map.png'),
          new MediaGalleryItemBuilder().setURL('https://example.com/banner.png'),
        ),
      )
      .addFileComponents(new FileBuilder().setURL('attachment://replay.log'));
    const sent = await channel.send({
      flags: MessageFlags.IsComponentsV2,
      components: [container],
      files: [
        new AttachmentBuilder(PNG, { name: 'mvp.png' }),
        new AttachmentBuilder(PNG, { name: 'map.png' }),
        new AttachmentBuilder(Buffer.from('tick 1\n'), { name: 'replay.log' }),
        new AttachmentBuilder(PNG, { name: 'hidden.png' }),
      ],
    });
    expect(sent.flags.has(MessageFlags.IsComponentsV2)).toBe(true);
    // Three attachments are shown by components; hidden.png by none, so it does not show.
    expect([...sent.attachments.values()].map((a) => a.name).sort()).toEqual([
      'map.png',
      'mvp.png',
      'replay.log',
    ]);

    const read = await call<Json>(
      emu,
      `Bot ${emu.botToken}`,
      'GET',
      `/channels/${general(emu)}/messages/${sent.id}`,
    );
    const [box] = read.json.components as Json[];
    expect(box).toMatchObject({ type: 17, accent_color: 0x5865f2 });
    const [title, section, separator, gallery, file] = box?.components as Json[];
    expect(title).toMatchObject({ type: 10, content: '# Match report' });
    expect(separator).toMatchObject({ type: 14, divider: true, spacing: 2 });
    const byName = new Map((read.json.attachments as Json[]).map((a) => [a.filename, a]));
    // attachment:// references come back resolved to the attachment's URL and id.
    expect(section).toMatchObject({
      type: 9,
      accessory: {
        type: 11,
        description: 'MVP',
        media: {
          url: byName.get('mvp.png')?.url,
          attachment_id: byName.get('mvp.png')?.id,
          content_type: 'image/png',
        },
      },
    });
    expect(gallery).toMatchObject({
      type: 12,
      items: [
        { media: { url: byName.get('map.png')?.url, attachment_id: byName.get('map.png')?.id } },
        { media: { url: 'https://example.com/banner.png' } },
      ],
    });
    expect(file).toMatchObject({ type: 13, file: { url: byName.get('replay.log')?.url } });
    expect(await (await fetch(String(byName.get('replay.log')?.url))).text()).toBe('tick 1\n');
    // A legacy message shows every attachment.
    const legacy = await channel.send({
      content: 'files',
      files: [new AttachmentBuilder(PNG, { name: 'x.png' })],
    });
    expect(legacy.attachments.size).toBe(1);
  });

  it('refuses bad V2 components with the platform’s field errors', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    const send = (components: unknown[]) =>
      call<Json>(emu, `Bot ${emu.botToken}`, 'POST', `/channels/${general(emu)}/messages`, {
        flags: 1 << 15,
        components,
      });
    const text = { type: 10, content: 'hi' };
    const cases: [unknown[], Record<string, unknown>][] = [
      [[{ type: 17, accent_color: 0x1000000, components: [text] }], { 0: { accent_color: {} } }],
      [[{ type: 17, accent_color: -1, components: [text] }], { 0: { accent_color: {} } }],
      [[{ type: 17, components: [{ type: 17, components: [text] }] }], { 0: { components: { 0: {} } } }],
      [[{ type: 13, file: { url: 'https://example.com/a.txt' } }], { 0: { file: { url: {} } } }],
      [[{ type: 13 }], { 0: { file: { url: {} } } }],
      [[{ type: 12, items: [] }], { 0: { items: {} } }],
      [
        [{ type: 12, items: [{ media: { url: 'ftp://x/a.png' } }] }],
        { 0: { items: { 0: { media: { url: {} } } } } },
      ],
      [
        [{ type: 9, components: [text], accessory: { type: 11, media: {} } }],
        { 0: { accessory: { media: { url: {} } } } },
      ],
      [[{ type: 9, components: [text], accessory: { type: 10, content: 'x' } }], { 0: { accessory: {} } }],
      [[{ type: 11, media: { url: 'https://example.com/a.png' } }], { 0: {} }],
    ];
    for (const [components, errors] of cases) {
      const refused = await send(components);
      expect(refused.status, JSON.stringify(components)).toBe(400);
      expect(refused.json, JSON.stringify(components)).toMatchObject({
        code: 50035,
        errors: { components: errors },
      });
    }
    // Content and embeds stop working with IS_COMPONENTS_V2.
    const content = await call<Json>(
      emu,
      `Bot ${emu.botToken}`,
      'POST',
      `/channels/${general(emu)}/messages`,
      {
        flags: 1 << 15,
        content: 'x',
        components: [text],
      },
    );
    expect(content.json).toMatchObject({ code: 50035, errors: { content: {} } });
    // 40 components in all, nesting included.
    const many = [{ type: 17, components: Array.from({ length: 40 }, () => text) }];
    expect((await send(many)).json).toMatchObject({ code: 50035, errors: { components: {} } });
    expect((await send([{ type: 17, components: Array.from({ length: 39 }, () => text) }])).status).toBe(200);
  });

  it('ignores a String Select’s required in a message: its min_values still rule the click', async () => {
    const { emu } = await loggedEmulator(running, { users: 1 });
    const sent = await call<Json>(emu, `Bot ${emu.botToken}`, 'POST', `/channels/${general(emu)}/messages`, {
      content: 'Pick',
      components: [
        {
          type: 1,
          components: [
            { type: 3, custom_id: 'pick', required: false, options: [{ label: 'A', value: 'a' }] },
          ],
        },
      ],
    });
    expect(sent.status).toBe(200);
    await expect(
      emu.clickComponent({ user: 'alice', message: String(sent.json.id), customId: 'pick', values: [] }),
    ).rejects.toThrow(/pick 1–1 values/);
  });
});

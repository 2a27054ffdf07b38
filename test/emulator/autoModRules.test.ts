import {
  AutoModerationActionType,
  AutoModerationRuleEventType,
  AutoModerationRuleTriggerType,
  Events,
  GatewayIntentBits,
  type AutoModerationRule,
  type AutoModerationRuleCreateOptions,
} from 'discord.js';
import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { discordjsBotAfterEach } from './discordjsHelpers.js';

// Bits written out from the document, not imported from the emulator (see permissionBits.ts).
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const MANAGE_GUILD = 1n << 5n;

describe('AutoMod rules: KEYWORD and MEMBER_PROFILE with BLOCK_MEMBER_INTERACTION', () => {
  let emu: Emulator | undefined;
  const bot = discordjsBotAfterEach([
    GatewayIntentBits.Guilds,
    GatewayIntentBits.AutoModerationConfiguration,
  ]);

  it('quarantines a member whose profile matches: their sends are refused until the profile changes', async () => {
    emu = await bot.start({ users: 3 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    const generalId = seeded.channels.find((c) => c.name === 'general')?.id ?? '';
    const guild = await bot.login(emu);

    // Rules need MANAGE_GUILD.
    await expect(guild.autoModerationRules.fetch()).rejects.toMatchObject({ status: 403, code: 50013 });
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_GUILD });

    // Both refused rules block member interaction; each call names only the part it gets wrong.
    const blocking = (rule: Pick<AutoModerationRuleCreateOptions, 'name' | 'eventType' | 'triggerType'>) =>
      guild.autoModerationRules.create({
        ...rule,
        triggerMetadata: { keywordFilter: ['x'] },
        actions: [{ type: AutoModerationActionType.BlockMemberInteraction }],
      });
    // BLOCK_MEMBER_INTERACTION only goes with MEMBER_PROFILE: 50035 on a KEYWORD rule.
    await expect(
      blocking({
        name: 'wrong',
        eventType: AutoModerationRuleEventType.MessageSend,
        triggerType: AutoModerationRuleTriggerType.Keyword,
      }),
    ).rejects.toMatchObject({ code: 50035 });
    // MEMBER_PROFILE goes with MEMBER_UPDATE.
    await expect(
      blocking({
        name: 'wrong event',
        eventType: AutoModerationRuleEventType.MessageSend,
        triggerType: AutoModerationRuleTriggerType.MemberProfile,
      }),
    ).rejects.toMatchObject({ code: 50035 });

    const announced = new Promise<AutoModerationRule>((resolve) =>
      bot.client?.once(Events.AutoModerationRuleCreate, resolve),
    );
    const rule = await guild.autoModerationRules.create({
      name: 'No scam names',
      eventType: AutoModerationRuleEventType.MemberUpdate,
      triggerType: AutoModerationRuleTriggerType.MemberProfile,
      triggerMetadata: { keywordFilter: ['freenitro*'], allowList: [] },
      actions: [{ type: AutoModerationActionType.BlockMemberInteraction }],
      enabled: true,
    });
    expect(rule).toMatchObject({ triggerType: 6, eventType: 2, enabled: true });
    expect(rule.triggerMetadata.keywordFilter).toEqual(['freenitro*']);
    expect((await announced).id).toBe(rule.id);
    // One MEMBER_PROFILE rule per guild.
    await expect(
      guild.autoModerationRules.create({
        name: 'second',
        eventType: AutoModerationRuleEventType.MemberUpdate,
        triggerType: AutoModerationRuleTriggerType.MemberProfile,
        triggerMetadata: { keywordFilter: ['y'] },
        actions: [{ type: AutoModerationActionType.BlockMemberInteraction }],
      }),
    ).rejects.toMatchObject({ code: 50035 });

    // bob's global name matches (prefix wildcard, any case): quarantined, every send refused.
    const bobId = emu.users.find((u) => u.username === 'bob')?.id ?? '';
    emu.updateUser(bobId, { globalName: 'FreeNitroGiveaway' });
    let refused: unknown;
    try {
      emu.postChannelMessage(generalId, 'bob', 'hello everyone');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RangeError);
    expect(refused).toMatchObject({ status: 403, code: 50013, ruleId: rule.id });
    expect((refused as Error).message).toContain('quarantined');
    // carol is untouched; the owner (MANAGE_GUILD) is exempt whatever her name.
    emu.postChannelMessage(generalId, 'carol', 'hi');
    emu.updateUser(seeded.ownerId, { globalName: 'freenitro' });
    emu.postChannelMessage(generalId, 'alice', 'owner speaks');

    // Changing the profile lifts the quarantine; so does disabling the rule.
    emu.updateUser(bobId, { globalName: 'Bob' });
    emu.postChannelMessage(generalId, 'bob', 'back again');
    emu.updateUser(bobId, { globalName: 'freenitro' });
    expect(() => emu?.postChannelMessage(generalId, 'bob', 'x')).toThrow(/quarantined/);
    await rule.setEnabled(false);
    emu.postChannelMessage(generalId, 'bob', 'rule off');
    expect(emu.channelMessages(generalId).map((m) => m.content)).toEqual([
      'hi',
      'owner speaks',
      'back again',
      'rule off',
    ]);
  });

  it('blocks keywords in users’ messages with BLOCK_MESSAGE, keeps rules with the state, and deletes them', async () => {
    emu = await bot.start({ users: 3 });
    const seeded = emu.guilds()[0];
    if (!seeded) throw new Error('no seeded guild');
    const generalId = seeded.channels.find((c) => c.name === 'general')?.id ?? '';
    const lfgId = seeded.channels.find((c) => c.name === 'lfg')?.id ?? '';
    emu.addBotToGuild(seeded.id, { permissions: VIEW | SEND | MANAGE_GUILD });
    const guild = await bot.login(emu);
    const rule = await guild.autoModerationRules.create({
      name: 'Words',
      eventType: AutoModerationRuleEventType.MessageSend,
      triggerType: AutoModerationRuleTriggerType.Keyword,
      triggerMetadata: { keywordFilter: ['cheat', '*hack*'], allowList: ['lifehack'] },
      actions: [{ type: AutoModerationActionType.BlockMessage }],
      exemptChannels: [lfgId],
      enabled: true,
    });
    // Whole words only for "cheat"; "*hack*" anywhere; the allow list's word passes.
    expect(() => emu?.postChannelMessage(generalId, 'bob', 'I will CHEAT')).toThrow(
      'Message was blocked by AutoMod',
    );
    emu.postChannelMessage(generalId, 'bob', 'cheater is a different word');
    expect(() => emu?.postChannelMessage(generalId, 'carol', 'speedhacking')).toThrow(/AutoMod/);
    emu.postChannelMessage(generalId, 'carol', 'a lifehack');
    emu.postChannelMessage(lfgId, 'bob', 'cheat in an exempt channel');

    const saved = emu.exportState();
    await bot.logout();
    await emu.close();
    emu = await bot.start({ state: saved, rpc: false });
    const restored = await bot.login(emu);
    const rules = await restored.autoModerationRules.fetch();
    expect(rules.map((r) => r.name)).toEqual(['Words']);
    expect(() => emu?.postChannelMessage(generalId, 'bob', 'cheat')).toThrow(/AutoMod/);
    await restored.autoModerationRules.delete(rule.id);
    emu.postChannelMessage(generalId, 'bob', 'cheat');
    const gone = await fetch(`${emu.api}/guilds/${seeded.id}/auto-moderation/rules/${rule.id}`, {
      headers: { Authorization: `Bot ${emu.botToken}` },
    });
    expect(gone.status).toBe(404);
  });
});

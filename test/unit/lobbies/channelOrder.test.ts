import { describe, expect, it } from 'vitest';

import { ChannelType } from '../../../packages/sdkpp/src/chat/ChannelHandle.js';
import { sortChannelsAsShown } from '../../../packages/sdkpp/src/guilds/channelOrder.js';
import type { GuildChannel } from '../../../packages/sdkpp/src/guilds/types.js';

const channel = (
  id: string,
  type: ChannelType,
  position: number,
  parentId: string | null = null,
): GuildChannel => ({
  id,
  name: `c${id}`,
  type,
  position,
  parentId,
  isLinkable: false,
  isViewableAndWriteableByAllMembers: true,
  linkedLobby: null,
});

describe('sortChannelsAsShown', () => {
  it('lists top-level channels, then each category with its channels, text before voice, by position', () => {
    const list = [
      channel('1', ChannelType.GuildCategory, 1),
      channel('2', ChannelType.GuildVoice, 0, '1'),
      channel('3', ChannelType.GuildText, 5, '1'),
      channel('4', ChannelType.GuildCategory, 0),
      channel('5', ChannelType.GuildText, 1, '4'),
      channel('6', ChannelType.GuildText, 0, '4'),
      channel('7', ChannelType.GuildText, 3),
      channel('8', ChannelType.GuildVoice, 0),
      channel('9', ChannelType.GuildText, 0, '999'), // its category is not visible: shown at the top
    ];
    expect(sortChannelsAsShown(list).map((c) => c.id)).toEqual(['9', '7', '8', '4', '6', '5', '1', '3', '2']);
  });

  it('breaks position ties by id, numerically', () => {
    const list = [
      channel('100', ChannelType.GuildText, 0),
      channel('20', ChannelType.GuildText, 0),
      channel('3', ChannelType.GuildText, 0),
    ];
    expect(sortChannelsAsShown(list).map((c) => c.id)).toEqual(['3', '20', '100']);
  });
});

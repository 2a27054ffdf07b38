import { ChannelType } from '../chat/ChannelHandle.js';
import type { GuildChannel } from './types.js';

/** Voice-like channels sort after text-like ones among siblings, as the chat client lists them. */
function isVoiceLike(type: ChannelType): boolean {
  return type === ChannelType.GuildVoice || type === ChannelType.GuildStageVoice;
}

function byPosition(a: GuildChannel, b: GuildChannel): number {
  return (
    Number(isVoiceLike(a.type)) - Number(isVoiceLike(b.type)) ||
    a.position - b.position ||
    a.id.length - b.id.length ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * The channels in the order the chat client shows them: channels outside any category first, then each
 * category (by position) followed by its own channels; within a group text before voice, then by position.
 * A channel whose category is not in the list is shown at the top level.
 */
export function sortChannelsAsShown(channels: readonly GuildChannel[]): GuildChannel[] {
  const categories = channels.filter((c) => c.type === ChannelType.GuildCategory).sort(byPosition);
  const categoryIds = new Set(categories.map((c) => c.id));
  const children = (parentId: string | null): GuildChannel[] =>
    channels
      .filter((c) => c.type !== ChannelType.GuildCategory)
      .filter((c) =>
        parentId === null ? c.parentId === null || !categoryIds.has(c.parentId) : c.parentId === parentId,
      )
      .sort(byPosition);
  return [...children(null), ...categories.flatMap((category) => [category, ...children(category.id)])];
}

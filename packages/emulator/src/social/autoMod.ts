import { Permission, hasAll } from '../platform/permissions.js';
import type { AutoModRuleRecord, GuildMemberRecord, GuildRecord, UserRecord } from '../store/types.js';

/** AutoMod trigger types the emulator enforces. */
export const AutoModTrigger = { KEYWORD: 1, MEMBER_PROFILE: 6 } as const;

/** AutoMod action types. */
export const AutoModAction = {
  BLOCK_MESSAGE: 1,
  SEND_ALERT_MESSAGE: 2,
  TIMEOUT: 3,
  BLOCK_MEMBER_INTERACTION: 4,
} as const;

/** The platform's JSON code of content AutoMod blocked. */
export const AUTOMOD_BLOCKED_CODE = 200000;

/**
 * A user's send refused by AutoMod: a blocked keyword in the message (BLOCK_MESSAGE), or the member
 * quarantined by a MEMBER_PROFILE rule (BLOCK_MEMBER_INTERACTION). A RangeError, as every refusal of the
 * admin hooks is; `status` and `code` are what the platform answers (400 200000 for a blocked message; a
 * quarantined member is refused as a missing permission, 403 50013, since the platform only says "to an
 * extent").
 */
export class AutoModError extends RangeError {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    /** The rule that refused the send. */
    readonly ruleId: string,
  ) {
    super(message);
    this.name = 'AutoModError';
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `text` holds `keyword` the platform's way: a whole word, case-insensitively, unless a `*` at either
 * end lets it be part of a longer word there (`*cat` ends a word, `cat*` starts one, `*cat*` is anywhere).
 */
export function keywordMatches(text: string, keyword: string): boolean {
  const before = keyword.startsWith('*');
  const after = keyword.endsWith('*') && keyword.length > 1;
  const core = keyword.slice(before ? 1 : 0, after ? -1 : undefined);
  if (core.length === 0) return false;
  const source = `${before ? '' : '(?<![\\p{L}\\p{N}])'}${escape(core)}${after ? '' : '(?![\\p{L}\\p{N}])'}`;
  return new RegExp(source, 'iu').test(text);
}

/** The first keyword of `keywords` in `text` once the allow list's words are taken out, or undefined. */
export function firstMatch(
  text: string,
  keywords: readonly string[],
  allowList: readonly string[],
): string | undefined {
  let rest = text;
  for (const allowed of allowList) {
    const core = allowed.replace(/^\*|\*$/g, '');
    if (core.length > 0) rest = rest.replace(new RegExp(escape(core), 'giu'), ' ');
  }
  return keywords.find((k) => keywordMatches(rest, k));
}

/** Whether AutoMod leaves a member alone: the owner, MANAGE_GUILD or ADMINISTRATOR holders, exempt roles. */
function exempt(rule: AutoModRuleRecord, member: GuildMemberRecord, held: bigint): boolean {
  return (
    hasAll(held, Permission.MANAGE_GUILD) ||
    hasAll(held, Permission.ADMINISTRATOR) ||
    member.roles.some((r) => rule.exemptRoles.includes(r))
  );
}

/**
 * The MEMBER_PROFILE rule with BLOCK_MEMBER_INTERACTION that quarantines a member, with the keyword it found
 * in the member's profile (guild nick, global name or username), or undefined.
 */
export function quarantiningRule(
  guild: GuildRecord,
  member: GuildMemberRecord,
  user: UserRecord,
  held: bigint,
): { rule: AutoModRuleRecord; keyword: string } | undefined {
  const profile = [member.nick, user.globalName, user.username]
    .filter((t): t is string => t !== null)
    .join('\n');
  for (const rule of Object.values(guild.autoModRules ?? {})) {
    if (!rule.enabled || rule.triggerType !== AutoModTrigger.MEMBER_PROFILE) continue;
    if (!rule.actions.some((a) => a.type === AutoModAction.BLOCK_MEMBER_INTERACTION)) continue;
    if (exempt(rule, member, held)) continue;
    const keyword = firstMatch(profile, rule.keywords, rule.allowList);
    if (keyword !== undefined) return { rule, keyword };
  }
  return undefined;
}

/** The KEYWORD rule with BLOCK_MESSAGE that blocks `content` in a channel, with the keyword, or undefined. */
export function blockingRule(
  guild: GuildRecord,
  channelId: string,
  member: GuildMemberRecord,
  held: bigint,
  content: string,
): { rule: AutoModRuleRecord; keyword: string } | undefined {
  for (const rule of Object.values(guild.autoModRules ?? {})) {
    if (
      !rule.enabled ||
      rule.triggerType !== AutoModTrigger.KEYWORD ||
      rule.exemptChannels.includes(channelId)
    ) {
      continue;
    }
    if (!rule.actions.some((a) => a.type === AutoModAction.BLOCK_MESSAGE)) continue;
    if (exempt(rule, member, held)) continue;
    const keyword = firstMatch(content, rule.keywords, rule.allowList);
    if (keyword !== undefined) return { rule, keyword };
  }
  return undefined;
}

/**
 * Checks a member's send against the guild's AutoMod rules: throws {@link AutoModError} when a MEMBER_PROFILE
 * rule quarantines the member (whatever the content) or a KEYWORD rule blocks the content.
 */
export function checkAutoMod(
  guild: GuildRecord,
  channelId: string,
  user: UserRecord,
  held: bigint,
  content: string,
): void {
  const member = guild.members[user.id];
  if (!member || !Object.hasOwn(guild.members, user.id)) return;
  const quarantine = quarantiningRule(guild, member, user, held);
  if (quarantine) {
    throw new AutoModError(
      403,
      50013,
      `AutoMod quarantined this member (rule "${quarantine.rule.name}": the profile matches ` +
        `"${quarantine.keyword}"); they cannot send messages until the profile changes`,
      quarantine.rule.id,
    );
  }
  const blocked = blockingRule(guild, channelId, member, held, content);
  if (blocked) {
    throw new AutoModError(400, AUTOMOD_BLOCKED_CODE, 'Message was blocked by AutoMod', blocked.rule.id);
  }
}

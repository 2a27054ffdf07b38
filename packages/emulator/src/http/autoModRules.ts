import { checkAutoModRule, readAutoModBody } from '../bodies/autoModBody.js';
import { FieldErrors, requireObjectBody } from '../bodies/fieldErrors.js';
import { wireAutoModRule } from '../bot/resourceWire.js';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../platform/errors.js';
import { Permission } from '../platform/permissions.js';
import type { AutoModRuleRecord, GuildRecord } from '../store/types.js';
import { guildForBot } from './botAccess.js';
import { jsonReply, noContentReply } from './replies.js';
import { requireBot } from './requestAuth.js';
import { apiRoute, type Route, type RouteRequest } from './router.js';

/** Rules per guild by trigger type (the platform's: 6 KEYWORD, 1 MEMBER_PROFILE). */
export const MAX_RULES: Record<1 | 6, number> = { 1: 6, 6: 1 };

/**
 * 404 for a rule that is not there. Neither the document nor discord-api-types' error codes name an "Unknown
 * Auto Moderation Rule" code, so this is the platform's bare 404 (code 0) rather than a guessed number.
 */
function unknownRule(): ApiError {
  return new ApiError(404, 0, '404: Not Found');
}

/**
 * A guild's AutoMod rules, all with MANAGE_GUILD: list, get, create, modify, delete. The emulator enforces the
 * keyword kinds on users' sends (social/autoMod.ts): KEYWORD rules with BLOCK_MESSAGE refuse a message with
 * 200000, and MEMBER_PROFILE rules with BLOCK_MEMBER_INTERACTION quarantine a member whose nick, global name
 * or username holds a keyword. Changes send AUTO_MODERATION_RULE_* under AUTO_MODERATION_CONFIGURATION.
 */
export function autoModRuleRoutes(ctx: EmulatorContext): Route[] {
  const { guilds, store } = ctx;
  const resources = guilds.resources;
  const guildOf = (req: RouteRequest): GuildRecord => {
    requireBot(ctx, req);
    return guildForBot(ctx, req.params.guild_id ?? '', Permission.MANAGE_GUILD);
  };
  const one = (req: RouteRequest): { guild: GuildRecord; rule: AutoModRuleRecord } => {
    const guild = guildOf(req);
    const rule = resources.get(guild.id, 'autoModRules', req.params.rule_id ?? '');
    if (!rule) throw unknownRule();
    return { guild, rule };
  };
  const checkLinks = (
    errors: FieldErrors,
    guild: GuildRecord,
    r: Omit<AutoModRuleRecord, 'id' | 'creatorId'>,
  ): void => {
    r.exemptRoles.forEach((id, i) => {
      if (!Object.hasOwn(guild.roles, id))
        errors.add(['exempt_roles', i], 'GUILD_ROLE_INVALID', 'Not a role of this guild.');
    });
    r.exemptChannels.forEach((id, i) => {
      if (guilds.channel(id)?.guildId !== guild.id)
        errors.add(['exempt_channels', i], 'CHANNEL_INVALID', 'Not a channel of this guild.');
    });
    r.actions.forEach((a, i) => {
      const id = a.metadata.channel_id;
      if (typeof id === 'string' && guilds.channel(id)?.guildId !== guild.id) {
        errors.add(
          ['actions', i, 'metadata', 'channel_id'],
          'CHANNEL_INVALID',
          'Not a channel of this guild.',
        );
      }
    });
  };
  const base = '/guilds/:guild_id/auto-moderation/rules';
  return [
    apiRoute('GET', base, (req) => {
      const guild = guildOf(req);
      return jsonReply(
        200,
        resources.list(guild.id, 'autoModRules').map((r) => wireAutoModRule(r, guild.id)),
      );
    }),
    apiRoute('GET', `${base}/:rule_id`, (req) => {
      const { guild, rule } = one(req);
      return jsonReply(200, wireAutoModRule(rule, guild.id));
    }),
    apiRoute('POST', base, async (req) => {
      const guild = guildOf(req);
      const errors = new FieldErrors();
      const f = readAutoModBody(errors, requireObjectBody(await req.json()));
      if (f.name === undefined) errors.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (f.triggerType === undefined)
        errors.add(['trigger_type'], 'BASE_TYPE_REQUIRED', 'This field is required');
      if (f.eventType === undefined)
        errors.add(['event_type'], 'BASE_TYPE_REQUIRED', 'This field is required');
      errors.finish();
      const rule = {
        name: f.name ?? '',
        eventType: f.eventType ?? 1,
        triggerType: f.triggerType ?? 1,
        keywords: f.keywords ?? [],
        allowList: f.allowList ?? [],
        actions: f.actions ?? [],
        enabled: f.enabled ?? false,
        exemptRoles: f.exemptRoles ?? [],
        exemptChannels: f.exemptChannels ?? [],
      };
      const checks = new FieldErrors();
      checkAutoModRule(checks, rule);
      checkLinks(checks, guild, rule);
      const same = resources.list(guild.id, 'autoModRules').filter((r) => r.triggerType === rule.triggerType);
      if (same.length >= MAX_RULES[rule.triggerType]) {
        checks.add(
          ['trigger_type'],
          'AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED',
          `At most ${MAX_RULES[rule.triggerType]} rules of this type.`,
        );
      }
      checks.finish();
      const record = resources.add(guild.id, 'autoModRules', {
        ...rule,
        id: store.nextId(),
        creatorId: store.state.application.id,
      });
      return jsonReply(200, wireAutoModRule(record, guild.id));
    }),
    apiRoute('PATCH', `${base}/:rule_id`, async (req) => {
      const { guild, rule } = one(req);
      const errors = new FieldErrors();
      const f = readAutoModBody(errors, requireObjectBody(await req.json()));
      // The platform does not let a rule change its trigger type.
      if (f.triggerType !== undefined && f.triggerType !== rule.triggerType) {
        errors.add(['trigger_type'], 'AUTO_MODERATION_TRIGGER_TYPE', 'A rule keeps its trigger type.');
      }
      errors.finish();
      const { id: _id, creatorId: _creator, ...current } = rule;
      const next = { ...current, ...f };
      const checks = new FieldErrors();
      checkAutoModRule(checks, next);
      checkLinks(checks, guild, next);
      checks.finish();
      resources.update(guild.id, 'autoModRules', rule, f);
      return jsonReply(200, wireAutoModRule(rule, guild.id));
    }),
    apiRoute('DELETE', `${base}/:rule_id`, (req) => {
      const { guild, rule } = one(req);
      resources.delete(guild.id, 'autoModRules', rule.id);
      return noContentReply();
    }),
  ];
}

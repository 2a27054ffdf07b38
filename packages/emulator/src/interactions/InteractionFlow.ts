import { JsonBoundsError, MAX_JSON_DEPTH, parseBoundedJson } from '@sdkpp/protocol';
import { wireUser } from '../accounts/userObject.js';
import type { BotGateway } from '../bot/botGateway.js';
import { wireChannel, wireMember, wireRole } from '../bot/guildWire.js';
import { wireMessage } from '../bot/messageWire.js';
import { checkComponents, ComponentType } from '../bodies/componentBodies.js';
import { ApiError } from '../platform/errors.js';
import { FieldErrors, isRecord, optionalArray, optionalString } from '../bodies/fieldErrors.js';
import { checkMessageBody, MAX_ATTACHMENT_BYTES, type UploadedFile } from '../bodies/messageBodies.js';
import type { EmulatorLog } from '../log.js';
import { mentionsIn } from '../social/ChannelMessages.js';
import type { Guilds } from '../social/Guilds.js';
import { Permission, hasAll, parsePermissions } from '../platform/permissions.js';
import type { EmulatorStore } from '../store/Store.js';
import type { ChannelMessageRecord, CommandRecord, GuildChannelRecord } from '../store/types.js';
import type { WebhookEvents } from '../webhooks/WebhookEvents.js';
import { CommandType, OptionType } from './commandBodies.js';
import { checkUpload, isUpload, keepUpload, type CheckedUpload } from './uploads.js';
import {
  botDm,
  InteractionContext,
  privateAppPermissions,
  wirePrivateChannel,
  type PrivateChannel,
} from './privatePlace.js';
import { postSigned } from '../webhooks/signedPost.js';
import {
  ALLOWED_CALLBACKS,
  CallbackType,
  MAX_USER_INSTALL_FOLLOW_UPS,
  InteractionKind,
  RESPONSE_WINDOW_MS,
  type Interactions,
  type LiveInteraction,
} from './Interactions.js';

/** Message flag EPHEMERAL. */
export const EPHEMERAL = 1 << 6;
/** Message flag LOADING (a deferred response not yet edited). */
export const LOADING = 1 << 7;

/** What the flow needs. */
export interface InteractionFlowDeps {
  store: EmulatorStore;
  guilds: Guilds;
  bot: BotGateway;
  interactions: Interactions;
  webhooks: WebhookEvents;
  /** Whether a premium button's SKU is available. */
  skuAvailable: (skuId: string) => boolean;
  log: EmulatorLog;
  /** The emulator's HTTP origin. */
  http: string;
  /** The interactions endpoint URL, or null (interactions then go over the gateway). */
  endpointUrl: () => string | null;
  /** Launches the Activity for a user, in a guild channel or privately (null). */
  launchActivity: (userId: string, channelId: string | null) => { instanceId: string; url: string };
}

/** Who invokes, and where. */
export interface InvocationPlace {
  userId: string;
  /** A guild text channel, or null for a private channel. */
  channel: GuildChannelRecord | null;
  /** Where, when `channel` is null: a DM or group DM; absent, the DM with the app's bot user. */
  privateChannel?: PrivateChannel | null;
  installation: 'guild' | 'user';
}

/** A callback body: `{type, data}`. */
export interface CallbackBody {
  type: number;
  data: Record<string, unknown>;
}

function fieldError(path: string, code: string, message: string): ApiError {
  return new ApiError(400, 50035, 'Invalid Form Body', {
    errors: { [path]: { _errors: [{ code, message }] } },
  });
}

/**
 * Interactions from invocation to response: builds the payload (member and permissions, the channel with
 * full data — interaction payloads never obfuscate — `app_permissions`, `authorizing_integration_owners`
 * with string values, `context`, `attachment_size_limit`), delivers it to the interactions endpoint URL with
 * request signing or else as INTERACTION_CREATE over the gateway, and applies the callbacks and the
 * webhook follow-ups with the platform's rules.
 */
export class InteractionFlow {
  readonly #d: InteractionFlowDeps;

  constructor(deps: InteractionFlowDeps) {
    this.#d = deps;
  }

  get #botId(): string {
    return this.#d.store.state.application.id;
  }

  /** The private channel of a place without a guild channel: the one named, else the bot DM. */
  privateChannelOf(place: InvocationPlace): PrivateChannel {
    return place.privateChannel ?? botDm(place.userId, this.#botId);
  }

  /** `app_permissions`: the bot's in a guild it is in; else what @everyone holds there; the DM sets in DMs. */
  appPermissions(place: InvocationPlace): bigint {
    const { guilds } = this.#d;
    if (!place.channel) return privateAppPermissions(this.privateChannelOf(place));
    if (guilds.isMember(place.channel.guildId, this.#botId))
      return guilds.permissions(this.#botId, place.channel.id);
    const guild = guilds.guild(place.channel.guildId);
    let held = parsePermissions(guild?.roles[place.channel.guildId]?.permissions);
    const everyone = place.channel.overwrites.find((o) => o.type === 0 && o.id === place.channel?.guildId);
    if (everyone) held = (held & ~parsePermissions(everyone.deny)) | parsePermissions(everyone.allow);
    return held;
  }

  /** Creates, builds and delivers an interaction; resolves once it was handed over (not answered). */
  async start(
    kind: number,
    name: string,
    place: InvocationPlace,
    data: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<LiveInteraction> {
    const { store, guilds, interactions } = this.#d;
    const channel = place.channel;
    const privateChannel = channel ? null : this.privateChannelOf(place);
    const interaction = interactions.create({
      type: kind,
      name,
      userId: place.userId,
      guildId: channel?.guildId ?? null,
      channelId: channel?.id ?? null,
      privateChannel,
      installation: place.installation,
    });
    const user = store.user(place.userId);
    const member = channel ? guilds.member(channel.guildId, place.userId) : undefined;
    const owners =
      place.installation === 'guild' && channel ? { '0': channel.guildId } : { '1': place.userId };
    interaction.payload = {
      id: interaction.id,
      application_id: this.#botId,
      type: kind,
      data,
      ...(channel
        ? {
            guild_id: channel.guildId,
            guild: { id: channel.guildId, locale: 'en-US', features: [] },
            channel: wireChannel(channel, guilds.messages.lastId(channel.id)),
            channel_id: channel.id,
            member: member
              ? {
                  ...wireMember(member, user),
                  permissions: guilds.permissions(place.userId, channel.id).toString(),
                }
              : undefined,
            guild_locale: 'en-US',
          }
        : {
            channel: privateChannel ? wirePrivateChannel(privateChannel, store) : undefined,
            channel_id: privateChannel?.id,
            user: user ? wireUser(user) : undefined,
          }),
      token: interaction.token,
      version: 1,
      app_permissions: this.appPermissions(place).toString(),
      locale: 'en-US',
      entitlements: [],
      // String values only: the document notes that '0' was once wrongly sent as a number.
      authorizing_integration_owners: owners,
      context: privateChannel?.context ?? InteractionContext.GUILD,
      attachment_size_limit: MAX_ATTACHMENT_BYTES,
      ...extra,
    };
    await this.#deliver(interaction);
    interactions.changed(interaction);
    return interaction;
  }

  /**
   * An entry point command whose handler is DISCORD_LAUNCH_ACTIVITY: the platform launches the Activity itself,
   * and the app gets no interaction. The record shows the launch, as callback type LAUNCH_ACTIVITY, and the
   * platform posts its follow-up message (the app's, on the invocation) in the channel.
   */
  launchFromEntryPoint(name: string, place: InvocationPlace): LiveInteraction {
    const interaction = this.#d.interactions.create({
      type: InteractionKind.APPLICATION_COMMAND,
      name,
      userId: place.userId,
      guildId: place.channel?.guildId ?? null,
      channelId: place.channel?.id ?? null,
      privateChannel: place.channel ? null : this.privateChannelOf(place),
      installation: place.installation,
    });
    interaction.delivery = 'none: the platform launched the Activity (DISCORD_LAUNCH_ACTIVITY)';
    interaction.responseType = CallbackType.LAUNCH_ACTIVITY;
    interaction.launch = this.#d.launchActivity(place.userId, place.channel?.id ?? null);
    // The platform's follow-up in the channel, from the app, on the invocation: who launched which Activity.
    const application = this.#d.store.state.application;
    const followUp = this.#store(
      interaction,
      {
        content: '',
        embeds: [
          {
            type: 'rich',
            title: application.name,
            description: `<@${place.userId}> launched ${application.name}. Join them in the Activity!`,
          },
        ],
        components: [],
        flags: 0,
        attachments: [],
      },
      null,
    );
    interaction.originalMessageId = followUp.id;
    return interaction;
  }

  /** Builds `data` for a command invocation; throws a RangeError when the options do not fit the command. */
  commandData(
    command: CommandRecord,
    place: InvocationPlace,
    input: { options?: Record<string, unknown>; targetId?: string },
  ): Record<string, unknown> {
    const { store, guilds } = this.#d;
    const data: Record<string, unknown> = { id: command.id, name: command.name, type: command.type };
    if (command.guildId !== null) data.guild_id = command.guildId;
    const resolved: Record<string, Record<string, unknown>> = {};
    const resolveUser = (id: string): void => {
      const user = store.user(id);
      if (!user) throw new RangeError(`no user "${id}"`);
      (resolved.users ??= {})[id] = wireUser(user);
      const member = place.channel ? guilds.member(place.channel.guildId, id) : undefined;
      if (member && place.channel) {
        (resolved.members ??= {})[id] = {
          ...wireMember(member, undefined, { withUser: false }),
          permissions: guilds.permissions(id, place.channel.id).toString(),
        };
      }
    };
    if (command.type === CommandType.USER || command.type === CommandType.MESSAGE) {
      if (input.targetId === undefined)
        throw new RangeError(
          `a ${command.type === CommandType.USER ? 'user' : 'message'} command needs a target`,
        );
      data.target_id = input.targetId;
      if (command.type === CommandType.USER) resolveUser(input.targetId);
      else {
        const message = place.channel ? guilds.messages.get(place.channel.id, input.targetId) : undefined;
        if (!message || !place.channel) throw new RangeError(`no message "${input.targetId}" in the channel`);
        (resolved.messages ??= {})[message.id] = wireMessage(message, store, {
          http: this.#d.http,
          guildId: place.channel.guildId,
          content: true,
        });
      }
    }
    if (command.type === CommandType.CHAT_INPUT) {
      const given = input.options ?? {};
      const defs = command.options.filter(isRecord);
      const options: Record<string, unknown>[] = [];
      const uploads: { option: Record<string, unknown>; upload: CheckedUpload }[] = [];
      for (const def of defs) {
        const name = String(def.name);
        // Own keys only: an option named `constructor` must not find Object.prototype's.
        const value = Object.hasOwn(given, name) ? given[name] : undefined;
        if (value === undefined) {
          if (def.required === true) throw new RangeError(`option "${name}" of /${command.name} is required`);
          continue;
        }
        const type = Number(def.type);
        if (type === OptionType.ATTACHMENT) {
          // A file the user attaches: checked now, kept once every option passed.
          if (!isUpload(value))
            throw new RangeError(`option "${name}" of /${command.name} takes a file: { filename, data }`);
          const fileTypes = Array.isArray(def.file_types) ? def.file_types : undefined;
          const option: Record<string, unknown> = { name, type, value: '' };
          uploads.push({ option, upload: checkUpload(value, name, fileTypes) });
          options.push(option);
          continue;
        }
        const fits =
          type === OptionType.STRING
            ? typeof value === 'string'
            : type === OptionType.INTEGER
              ? Number.isSafeInteger(value)
              : type === OptionType.NUMBER
                ? typeof value === 'number' && Number.isFinite(value)
                : type === OptionType.BOOLEAN
                  ? typeof value === 'boolean'
                  : typeof value === 'string';
        if (!fits) throw new RangeError(`option "${name}" of /${command.name} has the wrong type`);
        const text = typeof value === 'string' ? value : '';
        if (type === OptionType.USER || type === OptionType.MENTIONABLE) resolveUser(text);
        if (type === OptionType.ROLE && place.channel) {
          const role = guilds.role(place.channel.guildId, text);
          if (!role) throw new RangeError(`no role "${text}"`);
          (resolved.roles ??= {})[text] = wireRole(role);
        }
        if (type === OptionType.CHANNEL) {
          const channel = guilds.channel(text);
          if (!channel) throw new RangeError(`no channel "${text}"`);
          // Resolved channels carry the invoking user's permissions there (`permissions`), and the bot's
          // (`app_permissions`, the document's rule) only when the bot is in the guild.
          (resolved.channels ??= {})[text] = {
            id: channel.id,
            name: channel.name,
            type: channel.type,
            permissions: guilds.permissions(place.userId, channel.id).toString(),
            ...(guilds.isMember(channel.guildId, this.#botId)
              ? { app_permissions: guilds.permissions(this.#botId, channel.id).toString() }
              : {}),
          };
        }
        options.push({ name, type, value });
      }
      const unknownNames = Object.keys(given).filter((n) => !defs.some((d) => d.name === n));
      if (unknownNames.length > 0)
        throw new RangeError(`/${command.name} has no option ${unknownNames.join(', ')}`);
      const target = {
        nextId: () => store.nextId(),
        files: guilds.messages.files,
        http: this.#d.http,
        channelId: place.channel?.id ?? this.privateChannelOf(place).id,
      };
      for (const { option, upload } of uploads) {
        const attachment = keepUpload(target, upload);
        option.value = attachment.id;
        (resolved.attachments ??= {})[String(attachment.id)] = attachment;
      }
      if (options.length > 0) data.options = options;
    }
    if (Object.keys(resolved).length > 0) data.resolved = resolved;
    return data;
  }

  async #deliver(interaction: LiveInteraction): Promise<void> {
    const { log, bot, webhooks } = this.#d;
    const url = this.#d.endpointUrl();
    if (url !== null) {
      const body = JSON.stringify(interaction.payload);
      const answer = await postSigned(
        url,
        body,
        webhooks.signedHeaders(body),
        RESPONSE_WINDOW_MS,
        'interactions',
      );
      if ('error' in answer) {
        interaction.delivery = `failed: ${answer.error}`;
        log.line('interactions', `interaction ${interaction.id} not delivered: ${interaction.delivery}`);
        return;
      }
      interaction.delivery = `http ${answer.status}`;
      if (answer.status < 200 || answer.status > 299) {
        log.line('interactions', `interaction ${interaction.id}: the endpoint answered ${answer.status}`);
        return;
      }
      let callback: unknown;
      try {
        // Bounded like every body a client sends: the answer becomes a stored message or modal.
        callback = parseBoundedJson(answer.text);
      } catch (error) {
        const deep = error instanceof JsonBoundsError && error.problem === 'too_deep';
        interaction.delivery = `http ${answer.status}: ${deep ? `JSON nested deeper than ${MAX_JSON_DEPTH} levels` : 'not JSON'}`;
        log.line(
          'interactions',
          `interaction ${interaction.id}: the endpoint's answer is ${deep ? 'nested too deep' : 'not JSON'}`,
        );
        return;
      }
      try {
        this.respond(interaction, callback, new Map());
      } catch (error) {
        interaction.delivery = `http ${answer.status}: ${error instanceof ApiError ? `${error.code} ${error.message}` : String(error)}`;
        log.line(
          'interactions',
          `interaction ${interaction.id}: the endpoint's callback was refused (${interaction.delivery})`,
        );
      }
      return;
    }
    const sessions = bot.sessions().filter((s) => s.carries(interaction.guildId) && s.connection !== null);
    if (sessions.length === 0) {
      interaction.delivery = 'failed: no bot session and no interactions endpoint URL';
      log.line('interactions', `interaction ${interaction.id}: ${interaction.delivery}`);
      return;
    }
    bot.dispatch('INTERACTION_CREATE', 0, interaction.guildId, () => interaction.payload);
    interaction.delivery = 'gateway';
  }

  /**
   * Applies the first response to an interaction (the callback route, or an endpoint's HTTP answer). Throws
   * the platform's errors: 10062 past the 3 s window, 40060 when already acknowledged, 50035 for a callback
   * type the interaction does not take or a bad body.
   */
  respond(
    interaction: LiveInteraction,
    body: unknown,
    files: Map<string, UploadedFile>,
  ): ChannelMessageRecord | null {
    const { interactions, log } = this.#d;
    if (interaction.responseType !== null)
      throw new ApiError(400, 40060, 'Interaction has already been acknowledged.');
    if (!interactions.awaitingResponse(interaction)) throw new ApiError(404, 10062, 'Unknown interaction');
    if (!isRecord(body) || typeof body.type !== 'number')
      throw fieldError('type', 'BASE_TYPE_REQUIRED', 'This field is required');
    const type = body.type;
    if (!(ALLOWED_CALLBACKS[interaction.type] ?? []).includes(type)) {
      throw fieldError(
        'type',
        'INTERACTION_CALLBACK_TYPE_INVALID',
        `Callback type ${type} is not valid for interaction type ${interaction.type}`,
      );
    }
    const data = isRecord(body.data) ? body.data : {};
    let message: ChannelMessageRecord | null = null;
    switch (type) {
      case CallbackType.PONG:
        break;
      case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
        message = this.#createResponse(interaction, data, files, false);
        interaction.originalMessageId = message.id;
        break;
      case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
        message = this.#createResponse(
          interaction,
          { flags: ((Number(data.flags) || 0) & EPHEMERAL) | LOADING },
          files,
          true,
        );
        interaction.originalMessageId = message.id;
        break;
      case CallbackType.DEFERRED_UPDATE_MESSAGE:
        interaction.originalMessageId = this.#sourceMessage(interaction)?.id ?? null;
        break;
      case CallbackType.UPDATE_MESSAGE: {
        const source = this.#sourceMessage(interaction);
        if (!source)
          throw fieldError('type', 'INTERACTION_CALLBACK_TYPE_INVALID', 'There is no message to update');
        this.editMessage(interaction, source, data, files);
        interaction.originalMessageId = source.id;
        message = source;
        break;
      }
      case CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: {
        const errors = new FieldErrors();
        interaction.choices = optionalArray(errors, ['data', 'choices'], data.choices, 25) ?? [];
        errors.finish();
        break;
      }
      case CallbackType.MODAL: {
        const errors = new FieldErrors();
        const customId = optionalString(errors, ['data', 'custom_id'], data.custom_id, 100, 1);
        const title = optionalString(errors, ['data', 'title'], data.title, 45, 1);
        if (customId === undefined && data.custom_id === undefined)
          errors.add(['data', 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
        if (title === undefined && data.title === undefined)
          errors.add(['data', 'title'], 'BASE_TYPE_REQUIRED', 'This field is required');
        const components = checkComponents(errors, data.components ?? null, 'modal', ['data', 'components']);
        if (data.components === undefined)
          errors.add(['data', 'components'], 'BASE_TYPE_REQUIRED', 'This field is required');
        errors.finish();
        interaction.modal = { customId: customId ?? '', title: title ?? '', components: components ?? [] };
        break;
      }
      case CallbackType.PREMIUM_REQUIRED:
        log.line(
          'interactions',
          `interaction ${interaction.id}: PREMIUM_REQUIRED (deprecated; a premium button replaces it)`,
        );
        break;
      case CallbackType.LAUNCH_ACTIVITY:
        log.line('interactions', `interaction ${interaction.id}: LAUNCH_ACTIVITY`);
        interaction.launch = this.#d.launchActivity(interaction.userId, interaction.channelId);
        break;
      default:
        break;
    }
    interaction.responseType = type;
    log.line('interactions', `interaction ${interaction.id} answered with callback type ${type}`);
    interactions.changed(interaction);
    return message;
  }

  /** The message a component or modal-from-component interaction came from. */
  #sourceMessage(interaction: LiveInteraction): ChannelMessageRecord | undefined {
    const message = interaction.payload.message;
    if (!isRecord(message) || typeof message.id !== 'string') return undefined;
    return this.findMessage(message.id, interaction.channelId);
  }

  /** A message by id: a channel message of `channelId`, or a private one of an interaction. */
  findMessage(messageId: string, channelId: string | null): ChannelMessageRecord | undefined {
    const inChannel = channelId === null ? undefined : this.#d.guilds.messages.get(channelId, messageId);
    return inChannel ?? this.#d.interactions.ofMessage(messageId)?.privateMessages.get(messageId);
  }

  /** Whether a user-installed app's responses must be ephemeral here (USE_EXTERNAL_APPS off, app not in the guild). */
  #forcedEphemeral(interaction: LiveInteraction): boolean {
    const { guilds } = this.#d;
    if (interaction.installation !== 'user' || interaction.channelId === null || interaction.guildId === null)
      return false;
    if (guilds.isMember(interaction.guildId, this.#botId)) return false;
    return !hasAll(
      guilds.permissions(interaction.userId, interaction.channelId),
      Permission.USE_EXTERNAL_APPS,
    );
  }

  #createResponse(
    interaction: LiveInteraction,
    data: Record<string, unknown>,
    files: Map<string, UploadedFile>,
    deferred: boolean,
  ): ChannelMessageRecord {
    const body = deferred
      ? { content: '', flags: Number(data.flags) & EPHEMERAL, loading: true }
      : this.#checkBody(data, files);
    const flags =
      (deferred ? Number(data.flags) : (body.flags ?? 0)) |
      (this.#forcedEphemeral(interaction) ? EPHEMERAL : 0);
    return this.#store(
      interaction,
      {
        content: body.content ?? '',
        embeds: 'embeds' in body ? (body.embeds ?? []) : [],
        components: 'components' in body ? (body.components ?? []) : [],
        flags,
        attachments: 'attachments' in body ? this.#attachments(interaction, body.attachments, files) : [],
      },
      null,
    );
  }

  /** Sends a follow-up through the interaction's webhook; user-installed apps get at most 5. */
  followUp(
    interaction: LiveInteraction,
    data: unknown,
    files: Map<string, UploadedFile>,
  ): ChannelMessageRecord {
    if (interaction.responseType === null) throw new ApiError(404, 10015, 'Unknown Webhook');
    if (interaction.installation === 'user' && interaction.followUps.length >= MAX_USER_INSTALL_FOLLOW_UPS) {
      this.#d.log.line(
        'interactions',
        `interaction ${interaction.id}: a 6th follow-up from a user-installed app refused`,
      );
      throw new ApiError(400, 40094, 'This interaction has hit the maximum number of follow up messages');
    }
    const body = this.#checkBody(isRecord(data) ? data : {}, files);
    const record = this.#store(
      interaction,
      {
        content: body.content ?? '',
        embeds: body.embeds ?? [],
        components: body.components ?? [],
        flags: (body.flags ?? 0) | (this.#forcedEphemeral(interaction) ? EPHEMERAL : 0),
        attachments: this.#attachments(interaction, body.attachments, files),
      },
      interaction.originalMessageId,
    );
    interaction.followUps.push(record.id);
    return record;
  }

  /** Edits a message of the interaction (original or follow-up); a deferred one loses its LOADING flag. */
  editMessage(
    interaction: LiveInteraction,
    record: ChannelMessageRecord,
    data: unknown,
    files: Map<string, UploadedFile>,
  ): void {
    const d = isRecord(data) ? data : {};
    const { poll, ...rest } = d;
    const wasLoading = ((record.flags ?? 0) & LOADING) !== 0;
    if (poll !== undefined && !wasLoading) {
      throw fieldError(
        'poll',
        'POLL_EDIT_NOT_ALLOWED',
        'A poll can only be added while editing a deferred response',
      );
    }
    const body = checkMessageBody(rest, files, {
      skuAvailable: this.#d.skuAvailable,
      edit: true,
      v2Already: ((record.flags ?? 0) & (1 << 15)) !== 0,
    });
    this.#autoMod(interaction, body.content);
    const change: Partial<ChannelMessageRecord> = {};
    if (body.content !== undefined) {
      const m = mentionsIn(body.content);
      Object.assign(change, { content: body.content, mentions: m.users, mentionRoles: m.roles });
    }
    if (body.embeds !== undefined) change.embeds = body.embeds;
    if (body.components !== undefined) change.components = body.components;
    if (body.attachments !== undefined)
      change.attachments = this.#attachments(interaction, body.attachments, files);
    if (poll !== undefined) change.poll = checkPoll(poll);
    change.flags = ((body.flags ?? record.flags ?? 0) & ~LOADING) | ((record.flags ?? 0) & EPHEMERAL);
    if (interaction.privateMessages.has(record.id)) {
      Object.assign(record, change, { editedAt: this.#d.store.now() });
    } else {
      this.#d.guilds.messages.update(record, change, true);
    }
    // A deferred response's edit is when its message exists: whoever awaits the response learns it now.
    this.#d.interactions.changed(interaction);
  }

  /** Deletes a message of the interaction. */
  deleteMessage(interaction: LiveInteraction, record: ChannelMessageRecord): void {
    if (!interaction.privateMessages.delete(record.id)) this.#d.guilds.messages.delete(record);
    this.#d.interactions.changed(interaction);
  }

  #checkBody(data: Record<string, unknown>, files: Map<string, UploadedFile>) {
    // Interaction responses may be ephemeral: flag 64 is allowed here besides what messages take.
    const flags = typeof data.flags === 'number' ? data.flags : 0;
    const body = checkMessageBody({ ...data, flags: flags & ~EPHEMERAL }, files, {
      edit: false,
      skuAvailable: this.#d.skuAvailable,
    });
    return { ...body, flags: (body.flags ?? 0) | (flags & EPHEMERAL) };
  }

  /** The channel an interaction's messages are in: its guild channel, else its DM or group DM. */
  #channelIdOf(interaction: LiveInteraction): string {
    return (
      interaction.channelId ?? interaction.privateChannel?.id ?? botDm(interaction.userId, this.#botId).id
    );
  }

  #attachments(
    interaction: LiveInteraction,
    specs:
      | {
          id: string;
          filename?: string | undefined;
          description?: string | undefined;
          isSpoiler?: boolean | undefined;
        }[]
      | undefined,
    files: Map<string, UploadedFile>,
  ) {
    const { store, guilds } = this.#d;
    return (specs ?? []).flatMap((spec) => {
      const file = files.get(spec.id);
      if (!file) return [];
      const filename = spec.filename ?? file.filename;
      const id = store.nextId();
      // Loose as well: an ephemeral or DM message is no stored channel message, and its files must still
      // answer at their url.
      guilds.messages.files.put(id, {
        bytes: file.bytes,
        contentType: file.contentType,
        loose: { channelId: this.#channelIdOf(interaction), filename },
      });
      return [
        {
          id,
          filename,
          size: file.bytes.length,
          contentType: file.contentType,
          description: spec.description ?? null,
          spoiler: spec.isSpoiler ?? filename.startsWith('SPOILER_'),
        },
      ];
    });
  }

  /** A blocked keyword (see Emulator.setAutoModKeywords) refuses the content with 400 200000. */
  #autoMod(interaction: LiveInteraction, content: string | undefined): void {
    if (content === undefined || interaction.guildId === null) return;
    const blocked = this.#d.guilds
      .autoModKeywords(interaction.guildId)
      .find((k) => content.toLowerCase().includes(k));
    if (blocked !== undefined) {
      this.#d.log.line('interactions', `AutoMod blocked a message in guild ${interaction.guildId}`);
      throw new ApiError(400, 200000, 'Message was blocked by AutoMod');
    }
  }

  #store(
    interaction: LiveInteraction,
    body: {
      content: string;
      embeds: unknown[];
      components: unknown[];
      flags: number;
      attachments: ChannelMessageRecord['attachments'];
    },
    originalResponseMessageId: string | null,
  ): ChannelMessageRecord {
    const { store, guilds } = this.#d;
    this.#autoMod(interaction, body.content);
    const mentions = mentionsIn(body.content);
    const owners =
      interaction.installation === 'guild' && interaction.guildId !== null
        ? { '0': interaction.guildId }
        : { '1': interaction.userId };
    const fields = {
      authorId: this.#botId,
      content: body.content,
      fromLobbyId: null,
      editedAt: null,
      embeds: body.embeds,
      attachments: body.attachments ?? [],
      components: body.components,
      flags: body.flags,
      nonce: null,
      pinnedAt: null,
      reference: null,
      snapshot: null,
      mentions: mentions.users,
      mentionRoles: mentions.roles,
      interaction: {
        id: interaction.id,
        type: interaction.type,
        name: interaction.name,
        userId: interaction.userId,
        owners,
        originalResponseMessageId,
      },
    };
    const channel = interaction.channelId === null ? undefined : guilds.channel(interaction.channelId);
    if (channel && (body.flags & EPHEMERAL) === 0) return guilds.messages.create(channel, fields);
    // Ephemeral messages, and messages in the DM with the bot, are the invoking user's alone.
    const record: ChannelMessageRecord = {
      ...fields,
      id: store.nextId(),
      channelId: this.#channelIdOf(interaction),
      createdAt: store.now(),
    };
    interaction.privateMessages.set(record.id, record);
    return record;
  }

  /** A wire message for a response (the callback's `with_response`, the webhook routes). */
  wire(interaction: LiveInteraction, record: ChannelMessageRecord): Record<string, unknown> {
    return wireMessage(record, this.#d.store, {
      http: this.#d.http,
      guildId: interaction.guildId ?? '',
      content: true,
    });
  }

  /** The component with `customId` in a message's components (legacy rows or V2 nesting), if any. */
  static findComponent(components: unknown[], customId: string): Record<string, unknown> | undefined {
    for (const c of components) {
      if (!isRecord(c)) continue;
      if (c.custom_id === customId && c.type !== ComponentType.ACTION_ROW) return c;
      const nested: unknown[] = [
        ...(Array.isArray(c.components) ? (c.components as unknown[]) : []),
        ...(isRecord(c.accessory) ? [c.accessory] : []),
        ...(isRecord(c.component) ? [c.component] : []),
      ];
      const found = InteractionFlow.findComponent(nested, customId);
      if (found) return found;
    }
    return undefined;
  }
}

/** A poll as a deferred response's edit may add: a question and 1–10 answers. */
function checkPoll(poll: unknown): unknown {
  const errors = new FieldErrors();
  if (!isRecord(poll) || !isRecord(poll.question)) {
    errors.add(['poll', 'question'], 'BASE_TYPE_REQUIRED', 'This field is required');
    errors.finish();
  }
  const p = poll as { question: Record<string, unknown>; answers?: unknown };
  optionalString(errors, ['poll', 'question', 'text'], p.question.text, 300, 1);
  const answers = optionalArray(errors, ['poll', 'answers'], p.answers, 10, 1);
  if (!answers) errors.add(['poll', 'answers'], 'BASE_TYPE_REQUIRED', 'A poll needs 1–10 answers');
  errors.finish();
  return poll;
}

import { ChannelKind, type Guilds } from '../social/Guilds.js';
import type { EmulatorStore } from '../store/Store.js';
import { ComponentType } from '../bodies/componentBodies.js';
import { isRecord } from '../bodies/fieldErrors.js';
import type { CommandRecord } from '../store/types.js';
import type {
  AwaitResponseOptions,
  EmulatorCommand,
  EmulatorInvocation,
  InvokeCommandOptions,
  SubmitModalOptions,
} from '../types.js';
import { CommandType, EntryPointHandler } from './commandBodies.js';
import type { Commands } from './Commands.js';
import { InteractionFlow, type InvocationPlace } from './InteractionFlow.js';
import { InteractionKind, type Interactions, type LiveInteraction } from './Interactions.js';
import { interactionView } from './interactionView.js';
import { ModalAnswers } from './modalAnswers.js';
import { groupDm, InteractionContext, userDm, type PrivateChannel } from './privatePlace.js';
import { awaitResponse } from './responseWait.js';

export { interactionView } from './interactionView.js';

/** A group DM holds at most 10 users (the platform's). */
const MAX_GROUP_DM_USERS = 10;

/** The interaction contexts' names, for the refusals. */
const CONTEXT_NAMES: Readonly<Record<number, string>> = {
  [InteractionContext.GUILD]: 'GUILD',
  [InteractionContext.BOT_DM]: 'BOT_DM',
  [InteractionContext.PRIVATE_CHANNEL]: 'PRIVATE_CHANNEL',
};

/** The admin view of a command. */
export function commandView(c: CommandRecord): EmulatorCommand {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    guildId: c.guildId,
    description: c.description,
    options: c.options.filter(isRecord).map((o) => ({
      name: String(o.name),
      type: Number(o.type),
      required: o.required === true,
    })),
  };
}

/** What the admin hooks play against: the users, guilds and commands, and the interactions they start. */
export interface InteractionAdminDeps {
  readonly store: EmulatorStore;
  readonly guilds: Guilds;
  readonly commands: Commands;
  readonly interactions: Interactions;
  readonly flow: InteractionFlow;
  /** The emulator's origins: uploads are served at the HTTP one. */
  readonly urls: { readonly http: string };
}

/**
 * The admin hooks that play the user's side of interactions (the dashboard calls them too): invoke a
 * command, click a component, submit a modal. Each checks what a client would (the command exists in that
 * scope, the user may use it there, the component exists and is enabled, the values fit the select or modal)
 * and throws a RangeError naming the problem.
 */
export class InteractionAdmin {
  readonly #ctx: InteractionAdminDeps;

  constructor(ctx: InteractionAdminDeps) {
    this.#ctx = ctx;
  }

  /** The interaction as delivered, with `response()` (not enumerable, so the view stays plain data). */
  #invocation(live: LiveInteraction): EmulatorInvocation {
    const response = (options?: AwaitResponseOptions) => awaitResponse(this.#ctx, live, options);
    return Object.defineProperty(interactionView(live), 'response', {
      value: response,
      enumerable: false,
    }) as EmulatorInvocation;
  }

  #userId(name: string): string {
    const user = this.#ctx.store.findUser(name);
    if (!user || user.bot) throw new RangeError(`no user "${name}"`);
    return user.id;
  }

  /**
   * The private channel an invocation names (`dm`: a DM with another user; `groupDm`: a group DM with 2–9
   * others), or null for a guild channel or the bot DM.
   */
  #privateChannel(userId: string, options: InvokeCommandOptions): PrivateChannel | null {
    const places = [options.channel, options.dm, options.groupDm].filter((p) => p !== undefined);
    if (places.length > 1) throw new RangeError('name one place: channel, dm or groupDm');
    if (options.dm !== undefined) {
      const other = this.#userId(options.dm);
      if (other === userId) throw new RangeError('a DM is with another user (leave dm out for the bot DM)');
      return userDm(userId, other);
    }
    if (options.groupDm !== undefined) {
      const others = [...new Set(options.groupDm.map((name) => this.#userId(name)))].filter(
        (id) => id !== userId,
      );
      if (others.length < 2 || others.length > MAX_GROUP_DM_USERS - 1) {
        throw new RangeError(
          `a group DM holds 3–${MAX_GROUP_DM_USERS} users: name 2–${MAX_GROUP_DM_USERS - 1} others`,
        );
      }
      return groupDm(userId, others);
    }
    return null;
  }

  /** See Emulator.invokeCommand. */
  async invoke(options: InvokeCommandOptions): Promise<EmulatorInvocation> {
    const { guilds, commands, flow } = this.#ctx;
    const userId = this.#userId(options.user);
    const privateChannel = this.#privateChannel(userId, options);
    const channel = options.channel === undefined ? null : (guilds.channel(options.channel) ?? null);
    if (options.channel !== undefined && channel?.type !== ChannelKind.TEXT) {
      throw new RangeError(`no text channel "${options.channel}"`);
    }
    if (channel && !guilds.mayView(userId, channel.id))
      throw new RangeError(`${options.user} cannot see that channel`);
    const installation = options.installation ?? 'guild';
    if (privateChannel && installation !== 'user') {
      throw new RangeError(
        'only a user-installed app is used in DMs between users and group DMs (installation "user")',
      );
    }
    if (installation === 'user' && this.#ctx.store.state.application.installContexts.user === undefined) {
      throw new RangeError(
        'the application does not support user installs (integration_types_config has no 1)',
      );
    }
    if (
      installation === 'guild' &&
      channel &&
      !guilds.isMember(channel.guildId, this.#ctx.store.state.application.id)
    ) {
      throw new RangeError(
        'the app is not installed in that guild (add the bot, or invoke as a user-installed app)',
      );
    }
    if (installation === 'guild' && !channel)
      throw new RangeError('a guild-installed app is invoked in a guild channel');
    const type = options.type ?? CommandType.CHAT_INPUT;
    const scopes = channel ? [channel.guildId, null] : [null];
    const command = scopes
      .flatMap((scope) => commands.list(scope))
      .find((c) => (c.name === options.command || c.id === options.command) && c.type === type);
    if (!command) throw new RangeError(`no command "${options.command}" of type ${type} here`);
    const context = channel
      ? InteractionContext.GUILD
      : (privateChannel?.context ?? InteractionContext.BOT_DM);
    if (!command.contexts.includes(context))
      throw new RangeError(`/${command.name} is not available in this context (${CONTEXT_NAMES[context]})`);
    if (!command.integrationTypes.includes(installation === 'guild' ? 0 : 1)) {
      throw new RangeError(`/${command.name} is not available to ${installation}-installed apps`);
    }
    if (channel && command.defaultMemberPermissions !== null) {
      const needed = BigInt(command.defaultMemberPermissions);
      if ((guilds.permissions(userId, channel.id) & needed) !== needed) {
        throw new RangeError(`${options.user} lacks the permissions /${command.name} needs`);
      }
    }
    const place: InvocationPlace = { userId, channel, privateChannel, installation };
    if (
      command.type === CommandType.PRIMARY_ENTRY_POINT &&
      command.handler === EntryPointHandler.DISCORD_LAUNCH_ACTIVITY
    ) {
      return this.#invocation(flow.launchFromEntryPoint(command.name, place));
    }
    const data = flow.commandData(command, place, {
      ...(options.options === undefined ? {} : { options: options.options }),
      ...(options.target === undefined ? {} : { targetId: options.target }),
    });
    return this.#invocation(await flow.start(InteractionKind.APPLICATION_COMMAND, command.name, place, data));
  }

  /** See Emulator.clickComponent. */
  async click(options: {
    user: string;
    message: string;
    customId: string;
    values?: string[];
  }): Promise<EmulatorInvocation> {
    const { flow, interactions } = this.#ctx;
    const userId = this.#userId(options.user);
    const owner = interactions.ofMessage(options.message);
    const channelId = owner?.channelId ?? this.#channelOfMessage(options.message);
    const record = flow.findMessage(options.message, channelId);
    if (!record) throw new RangeError(`no message "${options.message}"`);
    if (owner?.privateMessages.has(record.id) && owner.userId !== userId)
      throw new RangeError('that message is not theirs to see');
    const component = InteractionFlow.findComponent(record.components ?? [], options.customId);
    if (!component) throw new RangeError(`no component "${options.customId}" on message ${record.id}`);
    if (component.disabled === true) throw new RangeError(`component "${options.customId}" is disabled`);
    const type = Number(component.type);
    const data: Record<string, unknown> = { custom_id: options.customId, component_type: type };
    if (type === ComponentType.BUTTON) {
      if (component.style === 5 || component.style === 6)
        throw new RangeError('link and premium buttons send no interaction');
    } else {
      const values = options.values ?? [];
      const min = typeof component.min_values === 'number' ? component.min_values : 1;
      const max = typeof component.max_values === 'number' ? component.max_values : 1;
      if (values.length < min || values.length > max) throw new RangeError(`pick ${min}–${max} values`);
      if (type === ComponentType.STRING_SELECT) {
        const allowed = (Array.isArray(component.options) ? component.options : [])
          .filter(isRecord)
          .map((o) => o.value);
        const bad = values.filter((v) => !allowed.includes(v));
        if (bad.length > 0) throw new RangeError(`not options of the select: ${bad.join(', ')}`);
      }
      data.values = values;
    }
    const channel = channelId === null ? null : (this.#ctx.guilds.channel(channelId) ?? null);
    const place: InvocationPlace = {
      userId,
      channel,
      privateChannel: owner?.privateChannel ?? null,
      installation: owner?.installation ?? 'guild',
    };
    const message = flow.wire(owner ?? ({ guildId: channel?.guildId ?? null } as LiveInteraction), record);
    const started = await flow.start(InteractionKind.MESSAGE_COMPONENT, options.customId, place, data, {
      message,
    });
    return this.#invocation(started);
  }

  /** See Emulator.submitModal. */
  async submit(options: SubmitModalOptions): Promise<EmulatorInvocation> {
    const { flow, interactions, guilds, store } = this.#ctx;
    const userId = this.#userId(options.user);
    const opened = interactions.get(options.interaction);
    if (!opened?.modal) throw new RangeError(`interaction ${options.interaction} has no open modal`);
    if (opened.userId !== userId) throw new RangeError('the modal was opened for another user');
    const modal = opened.modal;
    const channel = opened.channelId === null ? null : (guilds.channel(opened.channelId) ?? null);
    const place: InvocationPlace = {
      userId,
      channel,
      privateChannel: opened.privateChannel,
      installation: opened.installation,
    };
    const answers = new ModalAnswers(
      {
        nextId: () => store.nextId(),
        files: guilds.messages.files,
        http: this.#ctx.urls.http,
        channelId: channel?.id ?? flow.privateChannelOf(place).id,
      },
      options.values,
      options.files,
    );
    const components = modal.components.filter(isRecord).map((c) => {
      if (c.type === ComponentType.LABEL && isRecord(c.component))
        return { type: c.type, id: c.id, component: answers.answer(c.component) };
      if (c.type === ComponentType.ACTION_ROW && Array.isArray(c.components)) {
        return {
          type: c.type,
          id: c.id,
          components: c.components.filter(isRecord).map((i) => answers.answer(i)),
        };
      }
      return { type: c.type, id: c.id };
    });
    const extra = answers.leftover();
    if (extra.length > 0) throw new RangeError(`the modal has no field ${extra.join(', ')}`);
    opened.modal = null;
    const fromMessage = opened.payload.message;
    const data: Record<string, unknown> = { custom_id: modal.customId, components };
    if (Object.keys(answers.attachments).length > 0) data.resolved = { attachments: answers.attachments };
    const started = await flow.start(
      InteractionKind.MODAL_SUBMIT,
      modal.customId,
      place,
      data,
      fromMessage === undefined ? {} : { message: fromMessage },
    );
    return this.#invocation(started);
  }

  #channelOfMessage(messageId: string): string | null {
    const all = this.#ctx.store.state.channelMessages;
    return Object.hasOwn(all, messageId) ? (all[messageId]?.channelId ?? null) : null;
  }
}

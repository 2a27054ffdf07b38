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
} from '../types.js';
import { CommandType, EntryPointHandler } from './commandBodies.js';
import type { Commands } from './Commands.js';
import { InteractionFlow, type InvocationPlace } from './InteractionFlow.js';
import { InteractionKind, type Interactions, type LiveInteraction } from './Interactions.js';
import { interactionView } from './interactionView.js';
import { awaitResponse } from './responseWait.js';

export { interactionView } from './interactionView.js';

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

  /** See Emulator.invokeCommand. */
  async invoke(options: InvokeCommandOptions): Promise<EmulatorInvocation> {
    const { guilds, commands, flow } = this.#ctx;
    const userId = this.#userId(options.user);
    const channel = options.channel === undefined ? null : (guilds.channel(options.channel) ?? null);
    if (options.channel !== undefined && channel?.type !== ChannelKind.TEXT) {
      throw new RangeError(`no text channel "${options.channel}"`);
    }
    if (channel && !guilds.mayView(userId, channel.id))
      throw new RangeError(`${options.user} cannot see that channel`);
    const installation = options.installation ?? 'guild';
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
    const context = channel ? 0 : 1;
    if (!command.contexts.includes(context))
      throw new RangeError(`/${command.name} is not available in this context`);
    if (!command.integrationTypes.includes(installation === 'guild' ? 0 : 1)) {
      throw new RangeError(`/${command.name} is not available to ${installation}-installed apps`);
    }
    if (channel && command.defaultMemberPermissions !== null) {
      const needed = BigInt(command.defaultMemberPermissions);
      if ((guilds.permissions(userId, channel.id) & needed) !== needed) {
        throw new RangeError(`${options.user} lacks the permissions /${command.name} needs`);
      }
    }
    const place: InvocationPlace = { userId, channel, installation };
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
    const place: InvocationPlace = { userId, channel, installation: owner?.installation ?? 'guild' };
    const message = flow.wire(owner ?? ({ guildId: channel?.guildId ?? null } as LiveInteraction), record);
    const started = await flow.start(InteractionKind.MESSAGE_COMPONENT, options.customId, place, data, {
      message,
    });
    return this.#invocation(started);
  }

  /** See Emulator.submitModal. */
  async submit(options: {
    user: string;
    interaction: string;
    values: Record<string, string | string[] | boolean>;
  }): Promise<EmulatorInvocation> {
    const { flow, interactions, guilds } = this.#ctx;
    const userId = this.#userId(options.user);
    const opened = interactions.get(options.interaction);
    if (!opened?.modal) throw new RangeError(`interaction ${options.interaction} has no open modal`);
    if (opened.userId !== userId) throw new RangeError('the modal was opened for another user');
    const modal = opened.modal;
    const given = { ...options.values };
    const answer = (input: Record<string, unknown>): Record<string, unknown> => {
      const id = String(input.custom_id);
      const value = given[id];
      Reflect.deleteProperty(given, id);
      const type = Number(input.type);
      if (type === ComponentType.TEXT_INPUT) {
        const text = typeof value === 'string' ? value : '';
        const required = input.required !== false;
        if (required && text.length === 0) throw new RangeError(`"${id}" is required`);
        const min = typeof input.min_length === 'number' ? input.min_length : 0;
        const max = typeof input.max_length === 'number' ? input.max_length : 4000;
        if (text.length > 0 && (text.length < min || text.length > max))
          throw new RangeError(`"${id}" must be ${min}–${max} characters`);
        return { type, id: input.id, custom_id: id, value: text };
      }
      if (type === ComponentType.CHECKBOX)
        return { type, id: input.id, custom_id: id, value: value === true };
      const values = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
      if (input.required !== false && values.length === 0) throw new RangeError(`"${id}" is required`);
      return { type, id: input.id, custom_id: id, values };
    };
    const components = modal.components.filter(isRecord).map((c) => {
      if (c.type === ComponentType.LABEL && isRecord(c.component))
        return { type: c.type, id: c.id, component: answer(c.component) };
      if (c.type === ComponentType.ACTION_ROW && Array.isArray(c.components)) {
        return { type: c.type, id: c.id, components: c.components.filter(isRecord).map(answer) };
      }
      return { type: c.type, id: c.id };
    });
    const extra = Object.keys(given);
    if (extra.length > 0) throw new RangeError(`the modal has no field ${extra.join(', ')}`);
    opened.modal = null;
    const channel = opened.channelId === null ? null : (guilds.channel(opened.channelId) ?? null);
    const place: InvocationPlace = { userId, channel, installation: opened.installation };
    const fromMessage = opened.payload.message;
    const started = await flow.start(
      InteractionKind.MODAL_SUBMIT,
      modal.customId,
      place,
      { custom_id: modal.customId, components },
      fromMessage === undefined ? {} : { message: fromMessage },
    );
    return this.#invocation(started);
  }

  #channelOfMessage(messageId: string): string | null {
    const all = this.#ctx.store.state.channelMessages;
    return Object.hasOwn(all, messageId) ? (all[messageId]?.channelId ?? null) : null;
  }
}

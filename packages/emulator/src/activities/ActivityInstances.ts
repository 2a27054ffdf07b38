import { TypedEmitter } from '@sdkpp/protocol';
import { randomToken } from '../random.js';

/** How many Activity instances may be live at once; a launch past it is refused. */
export const MAX_ACTIVITY_INSTANCES = 1000;

/** How long a launched instance waits for its first player before it is dropped. */
export const UNOPENED_INSTANCE_MS = 10 * 60_000;

/** How many launch tickets are kept; past it the oldest stops opening its host page. */
const MAX_TICKETS = 10_000;

/** Where an Activity runs: a guild channel, or a player's own private launch. */
export interface ActivityPlace {
  guildId: string | null;
  channelId: string | null;
}

/** One launch of the application's Activity, shared by every player who joins it. */
export interface ActivityInstance {
  /** The instance id the Embedded App SDK reads from `instance_id` (`i-<id>-gc-<guild>-<channel>` or `…-pc-<user>`). */
  readonly id: string;
  /** The SDK's `location_id`: `gc-<guild>-<channel>` for a guild channel, `pc-<user>` for a private launch. */
  readonly locationId: string;
  readonly guildId: string | null;
  readonly channelId: string | null;
  /** The user who launched it first. */
  readonly launchedBy: string;
  readonly launchedAt: number;
  /** Connected players, in the order they connected, with how many frames each has open. */
  readonly participants: Map<string, number>;
}

/** A player's pass to the host page of one instance (the launch link carries it). */
interface LaunchTicket {
  userId: string;
  instanceId: string;
  /** The `custom_id` of the Activity link the player opened, if they opened one. */
  customId: string | null;
}

/** Events of {@link ActivityInstances}. */
export type ActivityInstanceEvents = {
  /** Someone connected to or left an instance. */
  participants: [instance: ActivityInstance];
  /** The last player left; the instance is gone. */
  ended: [instance: ActivityInstance];
};

/**
 * The application's live Activity instances. Launching in a channel where an instance runs joins it, as the
 * client does, so every player of one launch shares the instance id; a private launch (no channel) is always
 * new. A player counts as a participant while at least one of their frames is connected; when the last one
 * leaves, the instance ends.
 */
export class ActivityInstances extends TypedEmitter<ActivityInstanceEvents> {
  readonly #instances = new Map<string, ActivityInstance>();
  readonly #tickets = new Map<string, LaunchTicket>();
  readonly #nextId: () => string;
  readonly #now: () => number;

  constructor(deps: { nextId: () => string; now: () => number }) {
    super();
    this.#nextId = deps.nextId;
    this.#now = deps.now;
  }

  /**
   * Launches (or joins) the instance of `place` for `userId`; returns it and the ticket of the player's host
   * page, whose frame gets `customId` (of an Activity link the player opened) as the SDK's `custom_id`. Throws a RangeError past {@link MAX_ACTIVITY_INSTANCES}.
   */
  launch(
    userId: string,
    place: ActivityPlace,
    customId: string | null = null,
  ): { instance: ActivityInstance; ticket: string } {
    const locationId =
      place.channelId === null ? `pc-${userId}` : `gc-${place.guildId ?? '0'}-${place.channelId}`;
    let instance =
      place.channelId === null
        ? undefined
        : [...this.#instances.values()].find((i) => i.locationId === locationId);
    if (!instance) {
      this.#dropUnopened();
      if (this.#instances.size >= MAX_ACTIVITY_INSTANCES) {
        throw new RangeError(`${MAX_ACTIVITY_INSTANCES} Activity instances are live; end one first`);
      }
      instance = {
        id: `i-${this.#nextId()}-${locationId}`,
        locationId,
        guildId: place.guildId,
        channelId: place.channelId,
        launchedBy: userId,
        launchedAt: this.#now(),
        participants: new Map(),
      };
      this.#instances.set(instance.id, instance);
    }
    const ticket = randomToken();
    this.#tickets.set(ticket, { userId, instanceId: instance.id, customId });
    if (this.#tickets.size > MAX_TICKETS) {
      const oldest = this.#tickets.keys().next().value;
      if (oldest !== undefined) this.#tickets.delete(oldest);
    }
    return { instance, ticket };
  }

  /** The instance and player a host-page ticket stands for, while the instance lives. */
  redeem(
    ticket: string,
  ): { instance: ActivityInstance; userId: string; customId: string | null } | undefined {
    const pass = this.#tickets.get(ticket);
    const instance = pass && this.#instances.get(pass.instanceId);
    return pass && instance ? { instance, userId: pass.userId, customId: pass.customId } : undefined;
  }

  /** One more frame of `userId` connected to the instance. */
  connect(instance: ActivityInstance, userId: string): void {
    const frames = instance.participants.get(userId) ?? 0;
    instance.participants.set(userId, frames + 1);
    if (frames === 0) this.emit('participants', instance);
  }

  /** One frame of `userId` closed; the last player's last frame ends the instance. */
  disconnect(instance: ActivityInstance, userId: string): void {
    const frames = instance.participants.get(userId);
    if (frames === undefined) return;
    if (frames > 1) {
      instance.participants.set(userId, frames - 1);
      return;
    }
    instance.participants.delete(userId);
    if (instance.participants.size > 0) {
      this.emit('participants', instance);
      return;
    }
    this.#instances.delete(instance.id);
    for (const [ticket, pass] of this.#tickets)
      if (pass.instanceId === instance.id) this.#tickets.delete(ticket);
    this.emit('ended', instance);
  }

  /**
   * Drops instances nobody opened within {@link UNOPENED_INSTANCE_MS} of their launch. A live instance without
   * participants is one nobody opened yet: the last player to leave ends it.
   */
  #dropUnopened(): void {
    const cutoff = this.#now() - UNOPENED_INSTANCE_MS;
    for (const instance of this.#instances.values()) {
      if (instance.participants.size === 0 && instance.launchedAt < cutoff) this.#end(instance);
    }
  }

  #end(instance: ActivityInstance): void {
    this.#instances.delete(instance.id);
    for (const [ticket, pass] of this.#tickets)
      if (pass.instanceId === instance.id) this.#tickets.delete(ticket);
    this.emit('ended', instance);
  }

  /** A live instance by id. */
  get(id: string): ActivityInstance | undefined {
    return this.#instances.get(id);
  }

  /** Every live instance, oldest first. */
  list(): ActivityInstance[] {
    return [...this.#instances.values()];
  }
}

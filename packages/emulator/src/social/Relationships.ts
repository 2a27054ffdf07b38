import { TypedEmitter } from '@sdkpp/protocol';
import type { EmulatorStore } from '../store/Store.js';
import type { RelationshipKind, RelationshipRecord } from '../store/types.js';

/** Platform relationships (friends, requests, blocks) or this application's game relationships. */
export type RelationshipGraph = 'discord' | 'game';

/** Why a relationship change was refused; routes turn it into the platform's error. */
export class RelationshipRefusal extends Error {
  constructor(
    readonly reason:
      'self' | 'blocked' | 'already_friends' | 'no_request' | 'nothing_to_remove' | 'not_blocked',
    message: string,
  ) {
    super(message);
    this.name = 'RelationshipRefusal';
  }
}

/** One side of a change, for the events each owner's sessions receive. */
export interface RelationshipChange {
  graph: RelationshipGraph;
  ownerId: string;
  targetId: string;
  /** The new record, or null when the relationship is gone. */
  record: RelationshipRecord | null;
  /** The type before the change, or null when there was none. */
  previousType: RelationshipKind | null;
}

/** Events of {@link Relationships}. */
export type RelationshipEvents = {
  /** One owner's view changed. A request or an acceptance changes two owners and emits twice. */
  changed: [change: RelationshipChange];
};

const key = (ownerId: string, targetId: string): string => `${ownerId}:${targetId}`;

/**
 * The friend graph: requests, acceptances, removals and blocks, for platform and game relationships.
 * Each user holds their own record of another (a request is outgoing for one and incoming for the other; a
 * block only exists for the blocker). Blocking ends every relationship between the two in both graphs.
 */
export class Relationships extends TypedEmitter<RelationshipEvents> {
  readonly #store: EmulatorStore;

  constructor(store: EmulatorStore) {
    super();
    this.#store = store;
  }

  /** How `ownerId` relates to `targetId` in a graph. */
  get(graph: RelationshipGraph, ownerId: string, targetId: string): RelationshipRecord | undefined {
    const table = this.#table(graph);
    const k = key(ownerId, targetId);
    return Object.hasOwn(table, k) ? table[k] : undefined;
  }

  /** Every record the user holds in a graph. */
  list(graph: RelationshipGraph, ownerId: string): RelationshipRecord[] {
    return Object.values(this.#table(graph)).filter((r) => r.ownerId === ownerId);
  }

  /** Friends in either graph. */
  friendsOf(userId: string): string[] {
    const ids = new Set<string>();
    for (const graph of ['discord', 'game'] as const) {
      for (const record of this.list(graph, userId)) if (record.type === 1) ids.add(record.targetId);
    }
    return [...ids];
  }

  /** True when the two are friends in either graph. */
  areFriends(a: string, b: string): boolean {
    return this.get('discord', a, b)?.type === 1 || this.get('game', a, b)?.type === 1;
  }

  /** True when either user blocked the other. */
  blockedEitherWay(a: string, b: string): boolean {
    return this.get('discord', a, b)?.type === 2 || this.get('discord', b, a)?.type === 2;
  }

  /**
   * Sends a friend request, or accepts one when the target already asked: the platform treats "add friend"
   * towards someone with a pending request to you as acceptance.
   */
  request(graph: RelationshipGraph, fromId: string, toId: string): 'requested' | 'accepted' {
    this.#refuseSelfOrBlocked(fromId, toId);
    const mine = this.get(graph, fromId, toId);
    if (mine?.type === 1)
      throw new RelationshipRefusal('already_friends', 'You are already friends with that user.');
    if (mine?.type === 3) {
      this.#befriend(graph, fromId, toId);
      return 'accepted';
    }
    if (mine?.type === 4) return 'requested';
    this.#put(graph, fromId, toId, 4);
    this.#put(graph, toId, fromId, 3);
    return 'requested';
  }

  /** Accepts an incoming request. */
  accept(graph: RelationshipGraph, ownerId: string, fromId: string): void {
    if (this.get(graph, ownerId, fromId)?.type !== 3) {
      throw new RelationshipRefusal('no_request', 'There is no pending friend request from that user.');
    }
    this.#befriend(graph, ownerId, fromId);
  }

  /**
   * Ends what the owner has with the target in a graph: rejects an incoming request, cancels an outgoing one,
   * removes a friend (for both), or (platform graph) lifts a block. `expect` limits which of these is meant.
   */
  remove(
    graph: RelationshipGraph,
    ownerId: string,
    targetId: string,
    expect?: readonly RelationshipKind[],
  ): void {
    const mine = this.get(graph, ownerId, targetId);
    if (!mine || (expect && !expect.includes(mine.type))) {
      throw new RelationshipRefusal('nothing_to_remove', 'There is no such relationship with that user.');
    }
    this.#delete(graph, ownerId, targetId);
    // A block is one-sided; anything else has a mirror record on the other side.
    if (mine.type !== 2 && this.get(graph, targetId, ownerId)?.type !== 2)
      this.#delete(graph, targetId, ownerId);
  }

  /** Blocks the target: ends every relationship between the two in both graphs, then records the block. */
  block(ownerId: string, targetId: string): void {
    if (ownerId === targetId) throw new RelationshipRefusal('self', 'You cannot block yourself.');
    for (const graph of ['discord', 'game'] as const) {
      if (this.get(graph, ownerId, targetId)) this.#delete(graph, ownerId, targetId);
      const theirs = this.get(graph, targetId, ownerId);
      if (theirs && theirs.type !== 2) this.#delete(graph, targetId, ownerId);
    }
    this.#put('discord', ownerId, targetId, 2);
  }

  /** Lifts the owner's block of the target. */
  unblock(ownerId: string, targetId: string): void {
    if (this.get('discord', ownerId, targetId)?.type !== 2) {
      throw new RelationshipRefusal('not_blocked', 'That user is not blocked.');
    }
    this.#delete('discord', ownerId, targetId);
  }

  /** Makes the two friends at once (the emulator's admin API and test set-up). */
  befriend(graph: RelationshipGraph, a: string, b: string): void {
    this.#refuseSelfOrBlocked(a, b);
    if (this.get(graph, a, b)?.type !== 1) this.#befriend(graph, a, b);
  }

  /**
   * A merged provisional account's relationships become the full account's, in both graphs and on both
   * sides: each owner's view of the source now names the destination. Where the destination already has a
   * record for the same user, that record stays; relationships between the two accounts themselves end.
   */
  migrate(sourceId: string, destinationId: string): void {
    for (const graph of ['discord', 'game'] as const) {
      for (const record of Object.values(this.#table(graph))) {
        if (record.ownerId === sourceId) {
          if (record.targetId !== destinationId && !this.get(graph, destinationId, record.targetId)) {
            this.#put(graph, destinationId, record.targetId, record.type);
          }
          this.#delete(graph, sourceId, record.targetId);
        } else if (record.targetId === sourceId) {
          if (record.ownerId !== destinationId && !this.get(graph, record.ownerId, destinationId)) {
            this.#put(graph, record.ownerId, destinationId, record.type);
          }
          this.#delete(graph, record.ownerId, sourceId);
        }
      }
    }
  }

  #refuseSelfOrBlocked(fromId: string, toId: string): void {
    if (fromId === toId)
      throw new RelationshipRefusal('self', 'You cannot send a friend request to yourself.');
    if (this.blockedEitherWay(fromId, toId)) {
      throw new RelationshipRefusal('blocked', 'Friend request blocked.');
    }
  }

  #befriend(graph: RelationshipGraph, a: string, b: string): void {
    this.#put(graph, a, b, 1);
    this.#put(graph, b, a, 1);
  }

  #table(graph: RelationshipGraph): Record<string, RelationshipRecord> {
    return graph === 'discord' ? this.#store.state.relationships : this.#store.state.gameRelationships;
  }

  #put(graph: RelationshipGraph, ownerId: string, targetId: string, type: RelationshipKind): void {
    const previousType = this.get(graph, ownerId, targetId)?.type ?? null;
    const record: RelationshipRecord = { ownerId, targetId, type, since: this.#store.now() };
    this.#table(graph)[key(ownerId, targetId)] = record;
    this.emit('changed', { graph, ownerId, targetId, record, previousType });
  }

  #delete(graph: RelationshipGraph, ownerId: string, targetId: string): void {
    const previous = this.get(graph, ownerId, targetId);
    if (!previous) return;
    Reflect.deleteProperty(this.#table(graph), key(ownerId, targetId));
    this.emit('changed', { graph, ownerId, targetId, record: null, previousType: previous.type });
  }
}

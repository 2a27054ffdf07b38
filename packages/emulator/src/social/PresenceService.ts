import { TypedEmitter } from '@sdkpp/protocol';

/** A status a client may set (gateway op 3 `status`). */
export type PresenceStatus = 'online' | 'idle' | 'dnd' | 'invisible' | 'offline';

/** An activity as stored: the wire object a client sent, after validation, plus `created_at`. */
export type StoredActivity = Record<string, unknown>;

/** What one source (a gateway session, a local-client RPC connection) says about its user. */
export interface SourcePresence {
  status: PresenceStatus;
  activities: StoredActivity[];
  /** Which client surface the source is, for `client_status`. */
  surface: 'desktop' | 'web' | 'mobile';
  /** Unix ms of the last change, so the newest source decides the status. */
  updatedAt: number;
}

/** A user's presence as others see it. */
export interface UserPresence {
  status: Exclude<PresenceStatus, 'invisible'>;
  activities: StoredActivity[];
  clientStatus: Partial<Record<'desktop' | 'web' | 'mobile', string>>;
}

/** Events of the {@link PresenceService}. */
export type PresenceEvents = {
  /** A user's visible presence changed; `previous` is what others saw before. */
  changed: [userId: string, presence: UserPresence, previous: UserPresence];
};

const OFFLINE: UserPresence = { status: 'offline', activities: [], clientStatus: {} };

/**
 * Every user's presence, merged from its sources: each gateway session and each local-client connection
 * says what its user is doing, and others see one presence. The newest source decides the status;
 * activities of all sources are shown, one per application (the newest wins). `invisible` shows as offline.
 * Features that show presence to others (fan-out to friends, READY) listen to `changed`.
 */
export class PresenceService extends TypedEmitter<PresenceEvents> {
  readonly #sources = new Map<string, Map<string, SourcePresence>>();
  readonly #now: () => number;

  constructor(now: () => number) {
    super();
    this.#now = now;
  }

  /** Sets what `source` says about the user; fields left out keep their previous value. */
  set(
    userId: string,
    source: string,
    update: { status?: PresenceStatus; activities?: StoredActivity[]; surface?: SourcePresence['surface'] },
  ): void {
    const previous = this.of(userId);
    let sources = this.#sources.get(userId);
    if (!sources) {
      sources = new Map();
      this.#sources.set(userId, sources);
    }
    const current = sources.get(source);
    sources.set(source, {
      status: update.status ?? current?.status ?? 'online',
      activities: update.activities ?? current?.activities ?? [],
      surface: update.surface ?? current?.surface ?? 'desktop',
      updatedAt: this.#now(),
    });
    this.#emitIfChanged(userId, previous);
  }

  /** Forgets a source (its session ended, its connection closed). */
  remove(userId: string, source: string): void {
    const sources = this.#sources.get(userId);
    if (!sources?.has(source)) return;
    const previous = this.of(userId);
    sources.delete(source);
    if (sources.size === 0) this.#sources.delete(userId);
    this.#emitIfChanged(userId, previous);
  }

  /** The user's sources, newest first. */
  sourceKeys(userId: string): string[] {
    const sources = this.#sources.get(userId);
    if (!sources) return [];
    return [...sources.entries()].sort((a, b) => b[1].updatedAt - a[1].updatedAt).map(([key]) => key);
  }

  /** What `source` last said, if anything. */
  source(userId: string, source: string): SourcePresence | undefined {
    return this.#sources.get(userId)?.get(source);
  }

  /** The user's presence as others see it. */
  of(userId: string): UserPresence {
    const sources = [...(this.#sources.get(userId)?.values() ?? [])].sort(
      (a, b) => a.updatedAt - b.updatedAt,
    );
    const newest = sources.at(-1);
    if (!newest || newest.status === 'invisible' || newest.status === 'offline') return OFFLINE;
    const byApplication = new Map<string, StoredActivity>();
    const clientStatus: UserPresence['clientStatus'] = {};
    for (const source of sources) {
      if (source.status !== 'invisible' && source.status !== 'offline')
        clientStatus[source.surface] = source.status;
      for (const activity of source.activities) {
        const key =
          typeof activity.application_id === 'string'
            ? activity.application_id
            : `name:${String(activity.name)}`;
        byApplication.set(key, activity);
      }
    }
    return { status: newest.status, activities: [...byApplication.values()], clientStatus };
  }

  #emitIfChanged(userId: string, previous: UserPresence): void {
    const next = this.of(userId);
    if (JSON.stringify(next) !== JSON.stringify(previous)) this.emit('changed', userId, next, previous);
  }
}

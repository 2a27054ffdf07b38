import type { EmulatorStore } from '../store/Store.js';
import { CONNECTION_TYPE, MAX_CONNECTION_FIELD, MAX_CONNECTIONS } from '../store/schema.js';
import type { ConnectionRecord } from '../store/types.js';
import type { EmulatorConnectionInput } from '../types.js';

/** A connection as Get Current User Connections answers it (the platform's field names). */
export function wireConnection(c: ConnectionRecord): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    verified: c.verified,
    friend_sync: c.friendSync,
    show_activity: c.showActivity,
    two_way_link: c.twoWayLink,
    visibility: c.visibility,
    revoked: c.revoked,
    integrations: [],
  };
}

function field(value: string, what: string): string {
  if (value.length < 1 || value.length > MAX_CONNECTION_FIELD)
    throw new RangeError(`a connection's ${what} is 1–${MAX_CONNECTION_FIELD} characters`);
  return value;
}

/**
 * Replaces a user's connections (the accounts of other services they connected) with `input`, each checked
 * (a service name, an id and a name, at most {@link MAX_CONNECTIONS}, no service account twice); throws a
 * RangeError naming the problem, changing nothing.
 */
export function setConnections(
  store: EmulatorStore,
  userId: string,
  input: readonly EmulatorConnectionInput[],
): void {
  const user = store.user(userId);
  if (!user || user.bot) throw new RangeError(`no user "${userId}"`);
  if (input.length > MAX_CONNECTIONS) throw new RangeError(`at most ${MAX_CONNECTIONS} connections`);
  const seen = new Set<string>();
  const records = input.map((c): ConnectionRecord => {
    if (!CONNECTION_TYPE.test(c.type))
      throw new RangeError(`"${c.type}" is not a service name (lowercase letters, digits, "_" and "-")`);
    const key = `${c.type}:${c.id}`;
    if (seen.has(key)) throw new RangeError(`the ${c.type} account ${c.id} is connected twice`);
    seen.add(key);
    return {
      type: c.type,
      id: field(c.id, 'id'),
      name: field(c.name, 'name'),
      verified: c.verified ?? true,
      visibility: c.visibility ?? 1,
      friendSync: c.friendSync ?? false,
      showActivity: c.showActivity ?? true,
      twoWayLink: c.twoWayLink ?? false,
      revoked: c.revoked ?? false,
    };
  });
  if (records.length === 0) delete user.connections;
  else user.connections = records;
}

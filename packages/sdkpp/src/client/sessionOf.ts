import { ValidationError } from '@sdkpp/protocol';
import type { Session } from './createSession.js';

/**
 * The session behind each client. The client's facade is split by area over a few classes (core, social,
 * lobbies, calls), and a `#private` field is seen only by the class that declares it, so the parts reach
 * the one session through this map instead; it stays out of the public surface.
 */
const sessions = new WeakMap<object, Session>();

/** Ties a client to its session; its constructor calls this once. */
export function attachSession(client: object, session: Session): void {
  sessions.set(client, session);
}

/** The session of a client. */
export function sessionOf(client: object): Session {
  const session = sessions.get(client);
  // Only a method called on an object that is not a client gets here (e.g. one taken off the prototype).
  if (!session) throw new ValidationError('a Client method was called on an object that is not a Client');
  return session;
}

/** True once the client's destroy() has started. */
export function isDestroyed(client: object): boolean {
  return sessions.get(client)?.destroyed !== undefined;
}

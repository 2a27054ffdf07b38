import type { EmulatorContext } from '../context.js';

/** How often idle lobbies are looked for (besides every {@link Emulator.advanceTime}). */
const SWEEP_INTERVAL_MS = 1000;

/**
 * Connects the lobbies to the gateway: READY lists the user's lobbies, a member's first session starting or
 * last session ending is a LOBBY_MEMBER_UPDATE (`connected`) to the lobby, and idle lobbies are swept once a
 * second. Returns the function that stops the sweep (the emulator calls it on close).
 */
export function wireLobbyGateway(ctx: EmulatorContext): () => void {
  const { hub, lobbies } = ctx;

  hub.on('sessionStarted', (session) => {
    // Only the first session changes `connected`; the new session is already counted here.
    if (session.kind === 'oauth' && hub.list(session.userId).length === 1) {
      lobbies.connectionChanged(session.userId);
    }
  });
  hub.on('sessionEnded', (session) => {
    if (session.kind === 'oauth' && hub.list(session.userId).length === 0) {
      lobbies.connectionChanged(session.userId);
    }
  });

  hub.addReadyContributor((session) =>
    session.kind === 'oauth'
      ? { lobbies: lobbies.lobbiesOf(session.userId).map((l) => lobbies.gatewayWire(l)) }
      : {},
  );

  const timer = setInterval(() => {
    lobbies.sweep();
  }, SWEEP_INTERVAL_MS);
  // The sweep alone must never keep a process (a test run, a game) alive.
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}

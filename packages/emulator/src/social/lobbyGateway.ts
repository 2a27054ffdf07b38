import type { GatewayHub } from '../gateway/GatewayHub.js';
import type { GatewaySession } from '../gateway/GatewaySession.js';
import type { Lobbies } from './Lobbies.js';

/** How often idle lobbies are looked for (besides every {@link Emulator.advanceTime}). */
const SWEEP_INTERVAL_MS = 1000;

/** What {@link wireLobbyGateway} connects: the gateway's sessions and the lobbies. */
export interface LobbyGatewayDeps {
  readonly hub: GatewayHub;
  readonly lobbies: Lobbies;
}

/**
 * Connects the lobbies to the gateway: READY lists the user's lobbies; a member going online (first socket:
 * identify or resume) or offline (last socket gone: close, drop or session end) is a LOBBY_MEMBER_UPDATE
 * (`connected`) to their lobbies and starts or stops their idle clocks; idle lobbies are swept once a second.
 * Returns the function that stops the sweep (the emulator calls it on close).
 */
export function wireLobbyGateway(ctx: LobbyGatewayDeps): () => void {
  const { hub, lobbies } = ctx;
  /** Users seen online, so only real changes are announced. */
  const online = new Set<string>();

  const recheck = (session: GatewaySession): void => {
    if (session.kind !== 'oauth') return;
    const now = lobbies.connected(session.userId);
    if (now === online.has(session.userId)) return;
    if (now) online.add(session.userId);
    else online.delete(session.userId);
    lobbies.connectionChanged(session.userId);
  };
  hub.on('sessionStarted', recheck);
  hub.on('sessionResumed', recheck);
  hub.on('sessionDisconnected', recheck);
  hub.on('sessionEnded', recheck);

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

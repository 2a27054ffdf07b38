import type { WireUser } from '../accounts/userObject.js';

/** What READY is built from. */
export interface ReadyInput {
  user: WireUser;
  sessionId: string;
  /** `oauth` for Bearer sessions, `normal` for the bot. */
  sessionType: 'oauth' | 'normal';
  scopes: string[];
  /** The application, with its flags as Get Current Application reports them. */
  application: { id: string; name: string; flags: number };
  gatewayUrl: string;
}

/**
 * The READY payload. The social arrays are empty for now; later features (relationships, presences,
 * lobbies) add their data here, which is why READY is built in one place.
 */
export function buildReady(input: ReadyInput): Record<string, unknown> {
  return {
    v: 10,
    user: input.user,
    session_id: input.sessionId,
    resume_gateway_url: input.gatewayUrl,
    session_type: input.sessionType,
    scopes: input.scopes,
    application: { id: input.application.id, flags: input.application.flags, name: input.application.name },
    guilds: [],
    relationships: [],
    game_relationships: [],
    private_channels: [],
    presences: [],
    lobbies: [],
    user_settings: {},
    sessions: [],
  };
}

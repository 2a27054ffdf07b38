import { parseBoundedJson } from '@sdkpp/protocol';
import type { UserRecord } from '../store/types.js';
import { ActionError, type ActionTarget, type DashboardAction } from './actionTypes.js';
import { CALL_ACTION } from './callAction.js';

export { ActionError, type ActionResult, type ActionTarget, type DashboardAction } from './actionTypes.js';

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ActionError(400, 'bad_body', 'The body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ActionError(400, 'bad_field', `"${field}" must be a string`);
  return value;
}

function requireString(body: Record<string, unknown>, field: string): string {
  const value = optionalString(body, field);
  if (value === undefined) throw new ActionError(400, 'bad_field', `"${field}" is required`);
  return value;
}

function userNamed(target: ActionTarget, id: string): UserRecord {
  const user = target.findUser(id);
  if (!user) throw new ActionError(404, 'unknown_user', `No user "${id}"`);
  return user;
}

/** Every action the dashboard offers a tester. */
export const DASHBOARD_ACTIONS: DashboardAction[] = [
  {
    pattern: ['users'],
    run(target, _params, body) {
      const fields = objectBody(body);
      const username = optionalString(fields, 'username');
      const globalName = optionalString(fields, 'globalName');
      try {
        const user = target.emulator.createUser({
          ...(username !== undefined ? { username } : {}),
          ...(globalName !== undefined ? { globalName } : {}),
        });
        return { status: 201, value: user };
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        const taken = error.message.includes('taken');
        throw new ActionError(taken ? 409 : 400, taken ? 'username_taken' : 'bad_field', error.message);
      }
    },
  },
  {
    pattern: ['users', ':user', 'ban'],
    run(target, params) {
      const user = userNamed(target, params.user ?? '');
      target.emulator.banUser(user.id);
      return { status: 200, value: { banned: user.id } };
    },
  },
  {
    pattern: ['users', ':user', 'revoke-tokens'],
    run(target, params) {
      const user = userNamed(target, params.user ?? '');
      target.emulator.revokeUserTokens(user.id);
      return { status: 200, value: { revoked: user.id } };
    },
  },
  {
    pattern: ['users', ':user', 'drop-gateway'],
    run(target, params) {
      const user = userNamed(target, params.user ?? '');
      return { status: 200, value: { dropped: target.emulator.dropGatewayConnections(user.id) } };
    },
  },
  {
    pattern: ['commands', ':command', 'invoke'],
    async run(target, params, body) {
      const fields = objectBody(body);
      const user = userNamed(target, requireString(fields, 'user'));
      const channel = optionalString(fields, 'channel');
      const optionsText = optionalString(fields, 'options');
      let options: Record<string, unknown> | undefined;
      if (optionsText !== undefined && optionsText.trim() !== '') {
        try {
          const parsed = parseBoundedJson(optionsText);
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
            throw new Error('not an object');
          options = parsed as Record<string, unknown>;
        } catch {
          throw new ActionError(400, 'bad_field', '"options" must be a JSON object of option values');
        }
      }
      try {
        const interaction = await target.emulator.invokeCommand({
          user: user.id,
          command: params.command ?? '',
          ...(channel === undefined || channel === '' ? {} : { channel }),
          ...(options === undefined ? {} : { options }),
        });
        return { status: 200, value: { id: interaction.id, delivery: interaction.delivery } };
      } catch (error) {
        if (error instanceof RangeError) throw new ActionError(400, 'refused', error.message);
        throw error;
      }
    },
  },
  {
    pattern: ['activity', 'launch'],
    run(target, _params, body) {
      const fields = objectBody(body);
      const user = userNamed(target, requireString(fields, 'user'));
      const channel = optionalString(fields, 'channel');
      try {
        const launch = target.emulator.launchActivity({
          user: user.id,
          ...(channel === undefined || channel === '' ? {} : { channel }),
        });
        // The link is the player's pass: it goes to the one who launched, never into the shared state.
        return {
          status: 200,
          value: { url: launch.url, instanceId: launch.instanceId, username: user.username },
        };
      } catch (error) {
        if (error instanceof RangeError) throw new ActionError(400, 'refused', error.message);
        throw error;
      }
    },
  },
  {
    pattern: ['activity', 'layout'],
    run(target, _params, body) {
      const fields = objectBody(body);
      const instance = requireString(fields, 'instance');
      const layoutMode = optionalString(fields, 'layoutMode');
      const orientation = optionalString(fields, 'orientation');
      if (
        layoutMode !== undefined &&
        layoutMode !== 'focused' &&
        layoutMode !== 'pip' &&
        layoutMode !== 'grid'
      )
        throw new ActionError(400, 'refused', 'layoutMode is focused, pip or grid');
      if (orientation !== undefined && orientation !== 'portrait' && orientation !== 'landscape')
        throw new ActionError(400, 'refused', 'orientation is portrait or landscape');
      try {
        const sent = target.emulator.setActivityLayout({
          instance,
          ...(layoutMode === undefined ? {} : { layoutMode }),
          ...(orientation === undefined ? {} : { orientation }),
        });
        return { status: 200, value: { sent } };
      } catch (error) {
        if (error instanceof RangeError) throw new ActionError(400, 'refused', error.message);
        throw error;
      }
    },
  },
  {
    // `:lobby` is a call's channel: a lobby's id, or a guild voice channel's.
    pattern: ['calls', ':lobby', 'kick'],
    run(target, params, body) {
      const userId = requireString(objectBody(body), 'userId');
      const lobbyId = params.lobby ?? '';
      if (!target.emulator.voice.calls().some((call) => call.channelId === lobbyId)) {
        throw new ActionError(404, 'unknown_call', `No call in ${lobbyId}`);
      }
      if (!target.emulator.voice.kick(lobbyId, userId)) {
        throw new ActionError(404, 'not_in_call', `User ${userId} is not in the call of ${lobbyId}`);
      }
      return { status: 200, value: { kicked: userId, lobbyId } };
    },
  },
  {
    pattern: ['voice', 'join'],
    run(target, _params, body) {
      const fields = objectBody(body);
      const user = userNamed(target, requireString(fields, 'user'));
      const play = optionalString(fields, 'play');
      const record = optionalString(fields, 'record');
      try {
        const joined = target.emulator.joinVoiceChannel({
          user: user.id,
          channel: requireString(fields, 'channel'),
          ...(play === undefined || play === '' ? {} : { play }),
          ...(record === undefined || record === '' ? {} : { record }),
        });
        return { status: 200, value: { sessionId: joined.sessionId, username: user.username } };
      } catch (error) {
        // A refused join (no CONNECT, a full channel) or an unreadable WAV file.
        if (error instanceof Error) throw new ActionError(400, 'refused', error.message);
        throw error;
      }
    },
  },
  {
    pattern: ['voice', 'leave'],
    async run(target, _params, body) {
      const user = userNamed(target, requireString(objectBody(body), 'user'));
      if (!(await target.emulator.leaveVoiceChannel(user.id))) {
        throw new ActionError(404, 'not_joined', `${user.username} was not put in a voice channel from here`);
      }
      return { status: 200, value: { left: user.username } };
    },
  },
  {
    pattern: ['local-client', 'device-screen', 'close'],
    run(target) {
      const shown = target.emulator.rpcDeviceScreen();
      if (!shown || !target.emulator.closeRpcDeviceScreen()) {
        throw new ActionError(404, 'not_shown', 'The desktop client shows no device authorization screen');
      }
      return { status: 200, value: { closed: shown.userCode } };
    },
  },
  CALL_ACTION,
];

/** The action whose pattern matches the path segments, with the `:name` values. */
export function findAction(
  segments: string[],
): { action: DashboardAction; params: Record<string, string> } | null {
  for (const action of DASHBOARD_ACTIONS) {
    if (action.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = action.pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (!part.startsWith(':')) return part === segment;
      if (segment.length === 0) return false;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return false;
      }
      return true;
    });
    if (matches) return { action, params };
  }
  return null;
}

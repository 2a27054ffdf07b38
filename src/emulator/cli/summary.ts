import type { Emulator } from '../types.js';

/** Users listed by name in the summary; more are counted, not listed (`--json` lists them all). */
const LISTED_USERS = 4;

/** The users on one line: all of a few, or the first ones and a count. */
export function usersLine(users: readonly { username: string; id: string }[]): string {
  if (users.length === 0) return 'none';
  if (users.length <= LISTED_USERS) return users.map((u) => `${u.username} (${u.id})`).join(', ');
  const first = users.slice(0, LISTED_USERS - 1).map((u) => u.username);
  return `${users.length} users: ${first.join(', ')}, … ${users.at(-1)?.username ?? ''} (--json lists them all)`;
}

/** The human-readable start-up summary of `sdkpp emulator` (`serve`) or `sdkpp emulator exec`. */
export function summary(emulator: Emulator, mode: 'serve' | 'exec'): string {
  return [
    'sdkpp emulator is running',
    `  HTTP       ${emulator.http}`,
    `  API        ${emulator.api}`,
    `  Gateway    ${emulator.gateway}`,
    `  Dashboard  ${emulator.dashboard}`,
    `  Voice      ws://${emulator.voice.endpoint}/?v=8, UDP port ${emulator.voice.udpPort}`,
    `  Activity   ${emulator.activityUrl} (launch it from the dashboard)`,
    `  App id     ${emulator.applicationId}`,
    `  Bot token  ${emulator.botToken}`,
    `  Users      ${usersLine(emulator.users)}`,
    mode === 'serve' ? 'Press Ctrl+C to stop.' : 'It stops when the command ends.',
    '',
  ].join('\n');
}

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

/** Width of the summary's labels: the longest, "Client secret", and a space. */
const LABEL_WIDTH = 14;

/** One summary line: an indented label, padded, then the value. */
function row(label: string, value: string): string {
  return `  ${label.padEnd(LABEL_WIDTH)}${value}`;
}

/** The Activity's URL mappings, one line each (`prefix → target`), or a line saying how to add one. */
function mappingLines(mappings: readonly { prefix: string; target: string }[]): string[] {
  if (mappings.length === 0) {
    return [row('URL mappings', 'none (--activity-url-mapping /=http://127.0.0.1:5173 adds one)')];
  }
  return mappings.map((m) => row('URL mapping', `${m.prefix} → ${m.target}`));
}

/**
 * The human-readable start-up summary of `sdkpp emulator` (`serve`) or `sdkpp emulator exec`. It holds the
 * bot token and the client secret on purpose, as the developer portal shows them to the application's
 * owner: the summary is the terminal's, never a log line.
 */
export function summary(emulator: Emulator, mode: 'serve' | 'exec'): string {
  return [
    'sdkpp emulator is running',
    row('HTTP', emulator.http),
    row('API', emulator.api),
    row('Gateway', emulator.gateway),
    row('Dashboard', emulator.dashboard),
    row(
      'Voice',
      `ws://${emulator.voice.endpoint}/?v=8${emulator.voiceCaFile === null ? '' : ' (and wss://)'}, UDP port ${emulator.voice.udpPort}`,
    ),
    ...(emulator.voiceCaFile === null
      ? []
      : [row('Voice CA', `${emulator.voiceCaFile} (NODE_EXTRA_CA_CERTS for bots that dial wss://)`)]),
    row('Activity', `${emulator.activityUrl} (launch it from the dashboard)`),
    ...mappingLines(emulator.activityUrlMappings()),
    row('App id', emulator.applicationId),
    row('Public key', `${emulator.applicationPublicKey} (verifies interactions and webhook events)`),
    row('Client secret', emulator.clientSecret),
    row('Bot token', emulator.botToken),
    row('Users', usersLine(emulator.users)),
    mode === 'serve' ? 'Press Ctrl+C to stop.' : 'It stops when the command ends.',
    '',
  ].join('\n');
}

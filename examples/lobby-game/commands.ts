/** What a line typed at the terminal asks for. */
export type Command =
  | { kind: 'chat'; text: string }
  | { kind: 'move'; column: number }
  | { kind: 'invite'; username: string }
  | { kind: 'friend'; username: string }
  | { kind: 'accept'; username: string }
  | { kind: 'join'; secret: string | undefined }
  | { kind: 'host' | 'start' | 'friends' | 'board' | 'leave' | 'quit' | 'help' }
  | { kind: 'none' }
  | { kind: 'bad'; message: string };

/** The help text, one line per command. */
export const HELP = [
  '/move <column>    drop a disc into that column (1 is the leftmost)',
  '/invite <name>    invite a friend to your table (sends a friend request first if needed)',
  '/friend <name>    send a friend request; /accept <name> accepts one',
  '/friends          your friends and what they are playing',
  '/join [secret]    accept the latest invite, or join the table with that lobby secret',
  '/host             open a table of your own; /start begins the game (host, 2–4 players)',
  '/board            show the board again; /leave leaves the table; /quit leaves the game',
  'anything else     is said in the lobby chat',
];

const NAMED = { invite: 'invite', friend: 'friend', accept: 'accept' } as const;
const BARE = ['host', 'start', 'friends', 'board', 'leave', 'quit', 'help'] as const;

/** Reads one line of input; never throws (a mistake becomes a `bad` command with the reason). */
export function parseCommand(line: string): Command {
  const text = line.trim();
  if (text === '') return { kind: 'none' };
  if (!text.startsWith('/')) return { kind: 'chat', text };
  const [word = '', ...rest] = text.slice(1).split(/\s+/);
  const name = word.toLowerCase();
  const arg = rest.join(' ');
  if (name === 'move') {
    if (!/^\d{1,2}$/.test(arg)) return { kind: 'bad', message: '/move needs a column number, e.g. /move 4' };
    return { kind: 'move', column: Number(arg) };
  }
  if (Object.hasOwn(NAMED, name)) {
    const kind = NAMED[name as keyof typeof NAMED];
    if (!/^[\w.]{2,32}$/.test(arg))
      return { kind: 'bad', message: `/${kind} needs a username, e.g. /${kind} bob` };
    return { kind, username: arg.toLowerCase() };
  }
  if (name === 'join') return { kind: 'join', secret: arg === '' ? undefined : arg };
  const bare = BARE.find((b) => b === name);
  if (bare !== undefined) {
    return arg === '' ? { kind: bare } : { kind: 'bad', message: `/${bare} takes no arguments` };
  }
  return { kind: 'bad', message: `unknown command /${word}: /help lists the commands` };
}

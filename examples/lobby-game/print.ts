/** What a player's terminal shows: one line per event, prefixed with its topic, e.g. `[chat]    Bob: hi`. */
export type Topic =
  'game' | 'board' | 'chat' | 'lobby' | 'friends' | 'presence' | 'invite' | 'link' | 'error';

/** Writes one line under a topic. */
export type Print = (topic: Topic, text: string) => void;

/** The terminal's own player: every topic, prefix padded so the text lines up. */
export function terminalPrinter(write: (text: string) => void = (t) => process.stdout.write(t)): Print {
  return (topic, text) => {
    write(`${`[${topic}]`.padEnd(10)} ${text}\n`);
  };
}

/** Topics a computer player reports; its board and chat are what the terminal's player already shows. */
const BOT_TOPICS: ReadonlySet<Topic> = new Set(['link', 'friends', 'invite', 'error']);

/** A computer player sharing the terminal: only its own milestones, under its name. */
export function botPrinter(
  name: string,
  write: (text: string) => void = (t) => process.stdout.write(t),
): Print {
  return (topic, text) => {
    if (BOT_TOPICS.has(topic)) write(`${`[bot ${name}]`.padEnd(10)} ${text}\n`);
  };
}

import { parseBoundedJson } from '@sdkpp/protocol';
import { didYouMean } from '@sdkpp/protocol';
import { formatFlags, parseFlags, UsageError, type Flag } from './flags.js';
import type { CommandIo } from './io.js';
import { TOKEN_HEADER } from '../dashboard/guard.js';
import { argsText } from '../hooks/describeArgs.js';
import { ADMIN_HOOKS, checkHookArgs, findHook, type AdminHook } from '../hooks/index.js';
import { hookList } from './hookList.js';
import { chooseEmulator } from './chooseEmulator.js';
import { forgetRegistration, type Registration } from './emulatorRegistry.js';

/** Exit codes of `sdkpp emulator call`. */
export const CALL_EXIT = {
  /** The hook ran; its answer is on stdout. */
  done: 0,
  /** The emulator refused the call (the hook threw), or an awaited response did not come. */
  refused: 1,
  /** A mistake in the command line: unknown hook, arguments that are not JSON or do not fit. */
  usage: 2,
  /** No emulator to call: none running, several and none chosen, or the chosen one gone. */
  unreachable: 3,
} as const;

/** The longest the command waits for the emulator's answer (an awaited response is at most a minute). */
const ANSWER_LIMIT_MS = 90_000;

/** What the flags of `sdkpp emulator call` set. */
interface CallLine {
  emulator: string | undefined;
  list: boolean;
  json: boolean;
}

const CALL_FLAGS: readonly Flag<CallLine>[] = [
  {
    name: 'emulator',
    value: 'URL',
    default: '$SDKPP_EMULATOR, else the only one running',
    help: "the emulator's HTTP origin, e.g. http://127.0.0.1:24680",
    apply: (line, value) => {
      line.emulator = value;
    },
  },
  {
    name: 'list',
    help: 'print every hook with its arguments and what it does',
    apply: (line) => {
      line.list = true;
    },
  },
  {
    name: 'json',
    help: "with --list: the hooks and their arguments' JSON Schemas, as JSON",
    apply: (line) => {
      line.json = true;
    },
  },
];

/** Usage of `sdkpp emulator call`. */
export const CALL_USAGE = `Usage: sdkpp emulator call [--emulator URL] <hook> ['<JSON arguments>']
       sdkpp emulator call --list [--json]

Calls an admin hook of a running emulator (one started by "sdkpp emulator" or "sdkpp emulator exec") and
prints its JSON answer, e.g.
  sdkpp emulator call createSku '{"name": "Golden Board", "type": "durable"}'
  sdkpp emulator call launchActivity '{"user": "alice"}'      (the answer's "url" is alice's link)
  sdkpp emulator call invokeCommand '{"user": "alice", "command": "ping", "channel": "<id>",
                                      "awaitResponse": true}'  (answers what the app responded)

The arguments are one JSON object: the hook's parameters as fields named as in TypeScript, an options
object's fields merged in (befriend(userA, userB, { game }) takes {"userA": "alice", "userB": "bob"}).
Users are usernames or ids. "sdkpp emulator call --list" lists every hook with its arguments.

The emulator is --emulator URL, else $SDKPP_EMULATOR (set for "exec" commands), else the only one running.
It is reached through its dashboard with the dashboard's token, which each emulator keeps in a file only
its user may read ($XDG_RUNTIME_DIR/sdkpp, else <tmpdir>/sdkpp-<uid>) and removes when it stops.

Exit codes: 0 done, 1 the emulator refused the call (or an awaited response did not come), 2 a mistake in
the command line (unknown hook, bad JSON, arguments that do not fit), 3 no emulator to call.

Options:
${formatFlags(CALL_FLAGS)}`;

const NAME = 'sdkpp emulator call';

/** Splits flags (anywhere, as in `call createSku '{…}' --emulator URL`) from the hook and its arguments. */
function parseCallLine(args: readonly string[]): { line: CallLine; help: boolean; positional: string[] } {
  const line: CallLine = { emulator: undefined, list: false, json: false };
  const positional: string[] = [];
  let help = false;
  const end = args.indexOf('--');
  let remaining = end < 0 ? [...args] : args.slice(0, end);
  while (remaining.length > 0) {
    const parsed = parseFlags(CALL_FLAGS, remaining, line, { restFromPositional: true });
    help ||= parsed.help;
    const [next, ...after] = parsed.rest;
    if (next === undefined) break;
    positional.push(next);
    remaining = after;
  }
  if (end >= 0) positional.push(...args.slice(end + 1));
  return { line, help, positional };
}

/** The hook named `name`, or a usage error with the closest name. */
function hookNamed(name: string): AdminHook {
  const hook = findHook(name);
  if (hook) return hook;
  const guess = didYouMean(
    name,
    ADMIN_HOOKS.map((h) => h.name),
  );
  throw new UsageError(
    `unknown hook "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; "${NAME} --list" lists them`,
  );
}

/** The arguments as a checked object, or a usage error saying what is wrong. */
function hookArguments(hook: AdminHook, text: string | undefined): unknown {
  let value: unknown;
  try {
    value = parseBoundedJson(text ?? '{}');
  } catch (error) {
    throw new UsageError(
      `the arguments of ${hook.name} are not JSON (${error instanceof Error ? error.message : String(error)}); quote them for the shell: '{"name": "value"}'`,
    );
  }
  const checked = checkHookArgs(hook, value);
  if (checked.ok) return checked.args;
  throw new UsageError(
    `${hook.name} refused its arguments:\n${checked.problems.map((p) => `  ${p}`).join('\n')}\n${hook.name} takes ${argsText(hook)}`,
  );
}

/** `sdkpp emulator call …`: resolves with the exit code ({@link CALL_EXIT}). */
export async function runCall(
  args: readonly string[],
  io: CommandIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let target: { hook: AdminHook; args: unknown; emulator: string | undefined };
  try {
    const { line, help, positional } = parseCallLine(args);
    if (help) {
      io.stdout(CALL_USAGE);
      return CALL_EXIT.done;
    }
    if (line.list) {
      if (positional.length > 0) throw new UsageError('--list takes no hook');
      io.stdout(hookList(line.json));
      return CALL_EXIT.done;
    }
    if (line.json) throw new UsageError('--json goes with --list');
    const [name, json, extra] = positional;
    if (name === undefined) throw new UsageError('no hook given');
    if (extra !== undefined)
      throw new UsageError(`unexpected argument "${extra}" (one JSON object holds all)`);
    const hook = hookNamed(name);
    target = { hook, args: hookArguments(hook, json), emulator: line.emulator };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${NAME}: ${error.message}\n\nRun "${NAME} --help" for the usage.\n`);
    return CALL_EXIT.usage;
  }
  const chosen = await chooseEmulator(target.emulator, env);
  for (const { file, reason } of chosen.ignored) io.stderr(`${NAME}: ignored ${file}: ${reason}\n`);
  if ('problem' in chosen) {
    io.stderr(`${NAME}: ${chosen.problem}\n`);
    return CALL_EXIT.unreachable;
  }
  return callHook(chosen.registration, target.hook, target.args, io);
}

/** The answer's `{ error, message }`, when it has them. */
function refusalOf(body: unknown): { error: string; message: string } {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return {
    error: typeof record.error === 'string' ? record.error : 'unknown',
    message: typeof record.message === 'string' ? record.message : 'no message',
  };
}

/** POSTs the call to the emulator's dashboard and prints the answer; resolves with the exit code. */
async function callHook(
  registration: Registration,
  hook: AdminHook,
  args: unknown,
  io: CommandIo,
): Promise<number> {
  const where = `${registration.http} (pid ${registration.pid})`;
  let response: Response;
  try {
    response = await fetch(`${registration.http}/dashboard/api/call/${encodeURIComponent(hook.name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: registration.token },
      body: JSON.stringify(args),
      // The token goes to the registered address only, never along a redirect.
      redirect: 'error',
      signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      io.stderr(`${NAME}: the emulator at ${where} did not answer within ${ANSWER_LIMIT_MS / 1000} s\n`);
      return CALL_EXIT.refused;
    }
    // The process lives but nothing answers there: its pid was reused, the registration is stale.
    await forgetRegistration(registration);
    const { cause } = error as { cause?: { code?: string; message?: string } };
    const why = cause?.code ?? cause?.message ?? 'no answer';
    io.stderr(
      `${NAME}: the emulator registered at ${where} does not answer (${why}); its registration was stale and is removed\n`,
    );
    return CALL_EXIT.unreachable;
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    io.stderr(`${NAME}: the emulator at ${where} answered ${response.status} without JSON\n`);
    return CALL_EXIT.refused;
  }
  if (response.ok) {
    const result = (body as { result?: unknown }).result ?? null;
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return CALL_EXIT.done;
  }
  const refusal = refusalOf(body);
  if (refusal.error === 'bad_token' || refusal.error === 'missing_token') {
    // Another emulator took the port of one that died: its token is not this one's.
    await forgetRegistration(registration);
    io.stderr(
      `${NAME}: the emulator at ${registration.http} is not the one registered there (pid ${registration.pid}); the registration was stale and is removed\n`,
    );
    return CALL_EXIT.unreachable;
  }
  if (refusal.error === 'unknown_hook' || refusal.error === 'bad_arguments') {
    // This command's table and the emulator's differ: a different version of sdkpp serves it.
    io.stderr(
      `${NAME}: the emulator at ${where} refused: ${refusal.message} (is it another version of sdkpp?)\n`,
    );
    return CALL_EXIT.usage;
  }
  // Hooks name themselves in some messages ("purchaseSku: no user …"): say it once.
  const message = refusal.message.startsWith(`${hook.name}: `)
    ? refusal.message.slice(hook.name.length + 2)
    : refusal.message;
  io.stderr(
    refusal.error === 'refused'
      ? `${NAME}: ${hook.name} refused: ${message}\n`
      : `${NAME}: ${hook.name}: ${message} (${refusal.error})\n`,
  );
  return CALL_EXIT.refused;
}

/**
 * The dashboard's token of each running emulator, for the `sdkpp emulator` command, which writes it where
 * `sdkpp emulator call` finds it. Kept beside the emulator object, not on it: the token is a secret, and the
 * public `Emulator` (and `JSON.stringify(emulator)`) must not carry it.
 */
const tokens = new WeakMap<object, string>();

/** Remembers the token of the dashboard that `emulator` serves. */
export function rememberDashboardToken(emulator: object, token: string): void {
  tokens.set(emulator, token);
}

/** The token of `emulator`'s dashboard, or undefined for an object that is no running emulator. */
export function dashboardTokenOf(emulator: object): string | undefined {
  return tokens.get(emulator);
}

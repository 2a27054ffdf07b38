import { displayUserCode, normaliseUserCode } from './deviceAuthorizations.js';

/** The event the desktop client sends when its device authorization screen closes. */
export const DEVICE_SCREEN_CLOSED_EVENT = 'AUTHORIZE_DEVICE_SCREEN_CLOSED';

/** Why the device authorization screen closed. */
export type DeviceScreenCloseReason = 'closed' | 'approved' | 'denied' | 'replaced';

/** What the emulated desktop client's device authorization screen shows. */
export interface DeviceScreenView {
  /** The application the code is for. */
  clientId: string;
  /** The code shown to the player, as `XXXX-XXXX`. */
  userCode: string;
  /** When the game opened it, ms since the epoch (the emulator's clock). */
  openedAt: number;
}

/**
 * The emulated desktop client's device authorization screen (OpenAuthorizeDeviceScreen): at most one is shown.
 * It closes when the game closes it, when the tester closes it (test API, dashboard), when the player approves
 * or denies its code on the verification page, or when the game opens another; each close sends
 * {@link DEVICE_SCREEN_CLOSED_EVENT} to the games subscribed to it.
 */
export class DeviceScreen {
  readonly #now: () => number;
  #shown: DeviceScreenView | null = null;
  #notify: (reason: DeviceScreenCloseReason) => void = () => undefined;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Where closes are announced (the desktop client's event dispatch). */
  onClosed(notify: (reason: DeviceScreenCloseReason) => void): void {
    this.#notify = notify;
  }

  /** The screen shown now, or null. */
  current(): DeviceScreenView | null {
    return this.#shown ? { ...this.#shown } : null;
  }

  /**
   * Shows `userCode` for the application (OPEN_AUTHORIZE_DEVICE_SCREEN `{client_id, user_code}`), replacing a
   * screen already shown. Returns what is wrong with the arguments instead, if anything.
   */
  open(applicationId: string, args: Record<string, unknown>): string | null {
    if (args.client_id !== applicationId) return 'Invalid client_id';
    const code = typeof args.user_code === 'string' ? normaliseUserCode(args.user_code) : undefined;
    if (code === undefined) return 'user_code must be a device user code';
    if (this.#shown) this.close('replaced');
    this.#shown = { clientId: applicationId, userCode: displayUserCode(code), openedAt: this.#now() };
    return null;
  }

  /** Closes the screen; false when none was shown. */
  close(reason: DeviceScreenCloseReason): boolean {
    if (!this.#shown) return false;
    this.#shown = null;
    this.#notify(reason);
    return true;
  }

  /** Closes the screen if it shows this (normalised) user code: the player answered it on the web. */
  answered(userCode: string, reason: 'approved' | 'denied'): void {
    const shown = this.#shown;
    if (shown && normaliseUserCode(shown.userCode) === userCode) this.close(reason);
  }
}

const screens = new WeakMap<object, DeviceScreen>();

/** The device authorization screen of one emulator instance (keyed by its context). */
export function deviceScreenOf(owner: object, now: () => number): DeviceScreen {
  let found = screens.get(owner);
  if (!found) {
    found = new DeviceScreen(now);
    screens.set(owner, found);
  }
  return found;
}

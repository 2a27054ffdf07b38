import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';

import { startPulseServer, type PulseServer } from './pulseServer.js';

/**
 * Runs a PulseAudio server for the test file that calls this (at its top level), with `PULSE_SERVER`
 * pointing at it so that libpulse, inside the addon, finds it; returns the server, valid inside the tests.
 */
export function usePulseServer(): () => PulseServer {
  let pulse: PulseServer | undefined;
  beforeAll(async () => {
    pulse = await startPulseServer();
    vi.stubEnv('PULSE_SERVER', pulse.server);
  }, 30_000);
  // Each test (and each retry of one) starts without the devices the one before it loaded; devices a file
  // loads in its beforeAll stay for all its tests.
  let undo: (() => void) | undefined;
  beforeEach(() => {
    undo = pulse?.checkpoint();
  });
  afterEach(() => {
    undo?.();
    undo = undefined;
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await pulse?.stop();
  });
  return () => {
    if (!pulse) throw new Error('the PulseAudio server runs only inside the tests');
    return pulse;
  };
}

import { afterAll, beforeAll, vi } from 'vitest';

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
  afterAll(async () => {
    vi.unstubAllEnvs();
    await pulse?.stop();
  });
  return () => {
    if (!pulse) throw new Error('the PulseAudio server runs only inside the tests');
    return pulse;
  };
}

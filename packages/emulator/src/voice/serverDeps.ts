import type { SecureContextOptions } from 'node:tls';

import type { MediaEngine } from 'sdkpp/media';
import type { Clock } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';
import type { DaveCoordinatorFactory } from './daveBridge.js';
import type { VoiceImpairment } from './impairment.js';
import type { VoiceCalls } from './VoiceCalls.js';

// What the voice server is built from, in a file of its own: the server and each of its connections read
// these, and the connection must not import the server that creates it.

/** The voice server's settings, resolved from `EmulatorOptions.voice`. */
export interface VoiceServerSettings {
  /** Interface for the WebSocket and UDP sockets. */
  host: string;
  /** TCP port of the voice gateway (0: any free one). */
  port: number;
  /** UDP port of the forwarding unit (0: any free one). */
  udpPort: number;
  /** Lets clients without DAVE in; the whole call then runs without E2EE (a downgrade, for tests). */
  allowNonDave: boolean;
  /** Sent in Hello and Ready. */
  heartbeatIntervalMs: number;
  /** How long a voice session whose socket went away stays resumable. */
  resumeWindowMs: number;
  /** How long a socket may go without Identify or Resume before it is closed with 4003. */
  identifyTimeoutMs: number;
  /** Impairment from the start, or null. */
  impairment: VoiceImpairment | null;
}

/** What the voice server needs. */
export interface VoiceServerDeps {
  calls: VoiceCalls;
  log: EmulatorLog;
  clock: Clock;
  engine: MediaEngine;
  settings: VoiceServerSettings;
  /** Makes each call's DAVE coordinator; without it calls run DAVE version 0 (logged). */
  daveFactory?: DaveCoordinatorFactory;
  /** The certificate and key that let the voice gateway answer `wss://` on its port too; null: `ws://` only. */
  tls?: SecureContextOptions | null;
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { LogWriter } from '../../logging/index.js';
import type { SystemAudio, VoiceProcessingLink } from '../../media/index.js';
import { findPackageRoot } from '@sdkpp/protocol';
import type { VoiceProcessingSettings } from './VoiceProcessor.js';
import type { FromProcessingWorker, ProcessingWorkerData, ToProcessingWorker } from './worker/messages.js';

/** The worker's script, built by tsup from worker/processingWorkerMain.ts. */
const WORKER_SCRIPT = path.join('dist', 'voice-processing-worker.js');

/** Where the worker's script is, or undefined when the package has not been built. */
export function processingWorkerScript(): string | undefined {
  const root = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)), 'sdkpp');
  const script = root === undefined ? undefined : path.join(root, WORKER_SCRIPT);
  return script !== undefined && existsSync(script) ? script : undefined;
}

/** What a {@link ProcessingWorker} needs. */
export interface ProcessingWorkerOptions {
  /** The devices to process between. */
  readonly system: SystemAudio;
  /** The `.node` file the engine loaded (the worker loads the same one). */
  readonly addonPath: string;
  /** The worker's script ({@link processingWorkerScript}). */
  readonly script: string;
  /** What runs from the start. */
  readonly settings: VoiceProcessingSettings;
  readonly log: LogWriter;
}

/**
 * The main thread's side of the voice processing worker: a {@link VoiceProcessingLink} on the system
 * devices, and a worker thread that runs the echo canceller, noise suppressor and gain control on it. A
 * voice transport linked to {@link ProcessingWorker.link} then sends processed microphone audio, and the
 * game's event loop is nowhere on the audio path. The worker is unreferenced: it never keeps the process
 * alive.
 */
export class ProcessingWorker {
  /** The link the transport is to use once {@link ProcessingWorker.ready}. */
  readonly link: VoiceProcessingLink;
  /** The devices it was made on. */
  readonly system: SystemAudio;
  readonly #worker: Worker;
  readonly #log: LogWriter;
  #ready = false;
  #failed = false;
  #closed = false;

  constructor(options: ProcessingWorkerOptions) {
    this.system = options.system;
    this.#log = options.log;
    this.link = options.system.createProcessingLink();
    const workerData: ProcessingWorkerData = {
      addonPath: options.addonPath,
      linkId: this.link.id,
      settings: options.settings,
    };
    this.#worker = new Worker(options.script, { workerData, name: 'sdkpp voice processing' });
    this.#worker.unref();
    this.#worker.on('message', (message: FromProcessingWorker) => {
      this.#onMessage(message);
    });
    this.#worker.on('error', (error) => {
      this.#fail(error.message);
    });
    this.#worker.on('exit', (code) => {
      if (!this.#closed) this.#fail(`the worker exited (code ${code})`);
    });
  }

  /** Whether the worker serves the link with the first settings applied. */
  get ready(): boolean {
    return this.#ready && !this.#failed;
  }

  /** Whether the worker failed (the voice processing then runs on the main thread). */
  get failed(): boolean {
    return this.#failed;
  }

  /** Sends new settings; the worker applies them in order. */
  set(settings: VoiceProcessingSettings): void {
    if (!this.#closed) this.#post({ type: 'settings', settings });
  }

  /** Stops the worker and drops the link (a transport that still holds it keeps it until it is gone). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#post({ type: 'stop' });
    void this.#worker.terminate();
    this.link.dispose();
  }

  #post(message: ToProcessingWorker): void {
    this.#worker.postMessage(message);
  }

  #onMessage(message: FromProcessingWorker): void {
    switch (message.type) {
      case 'ready':
        this.#ready = true;
        this.#log.info('voice processing runs on its worker thread');
        break;
      case 'applied':
        break;
      case 'log':
        this.#log[message.level](message.message);
        break;
      case 'failed':
        this.#fail(message.message);
        break;
    }
  }

  #fail(reason: string): void {
    if (this.#failed || this.#closed) return;
    this.#failed = true;
    this.#log.warn(`voice processing worker failed, processing on the main thread instead: ${reason}`);
  }
}

/**
 * Starts a {@link ProcessingWorker} when this package can (a native engine whose addon has processing links,
 * and the built worker script); otherwise logs why once and returns undefined, and the voice processing
 * stays on the main thread.
 */
export function startProcessingWorker(
  system: SystemAudio,
  addonPath: string | undefined,
  settings: VoiceProcessingSettings,
  log: LogWriter,
): ProcessingWorker | undefined {
  const script = processingWorkerScript();
  const missing =
    addonPath === undefined
      ? 'the native engine is not in use'
      : script === undefined
        ? `${WORKER_SCRIPT} is not built (npm run build:ts)`
        : undefined;
  if (missing !== undefined || addonPath === undefined || script === undefined) {
    log.info(`voice processing stays on the main thread: ${missing ?? ''}`);
    return undefined;
  }
  try {
    return new ProcessingWorker({ system, addonPath, script, settings, log });
  } catch (error) {
    log.warn(`voice processing stays on the main thread: ${(error as Error).message}`);
    return undefined;
  }
}

import type { VoiceProcessingSettings } from '../VoiceProcessor.js';

/** What the processing worker starts with (its `workerData`). */
export interface ProcessingWorkerData {
  /** The `.node` file the main thread loaded: the worker must load the same one, which holds the link. */
  readonly addonPath: string;
  /** The {@link VoiceProcessingLink} to serve, by id. */
  readonly linkId: number;
  /** What runs from the start. */
  readonly settings: VoiceProcessingSettings;
}

/** From the main thread to the worker. */
export type ToProcessingWorker =
  { readonly type: 'settings'; readonly settings: VoiceProcessingSettings } | { readonly type: 'stop' };

/** From the worker to the main thread. */
export type FromProcessingWorker =
  /** The processors of the first settings run and the worker serves the link. */
  | { readonly type: 'ready' }
  /** A later settings change runs. */
  | { readonly type: 'applied'; readonly settings: VoiceProcessingSettings }
  /** A log line of the worker's, for the client's log. */
  | { readonly type: 'log'; readonly level: 'info' | 'warn' | 'error'; readonly message: string }
  /** The worker stopped serving the link after an error (the main thread falls back to its own processing). */
  | { readonly type: 'failed'; readonly message: string };

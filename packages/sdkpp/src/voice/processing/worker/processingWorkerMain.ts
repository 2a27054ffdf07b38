/**
 * The voice processing worker (bundled as dist/voice-processing-worker.js): echo cancellation, noise
 * suppression and gain control between the system microphone and a voice transport's thread, off the game's
 * event loop. It serves one {@link VoiceProcessingLink}: each 10 ms block of the microphone, after the
 * playout that reached the speaker before it, is processed and handed to the transport. See
 * {@link ProcessingWorker} for the main thread's side.
 */
import { parentPort, workerData } from 'node:worker_threads';

import type { LogWriter } from '../../../logging/index.js';
import { createMediaEngine, loadNativeAddon, type VoiceProcessingLink } from '../../../media/index.js';
import { PROCESSING_BLOCK } from '../EchoCanceller.js';
import { VoiceProcessor } from '../VoiceProcessor.js';
import type { FromProcessingWorker, ProcessingWorkerData, ToProcessingWorker } from './messages.js';

/** One 10 ms block, interleaved stereo. */
const BLOCK_SAMPLES = PROCESSING_BLOCK * 2;
/** The longest the loop blocks on the microphone before it looks at its messages again. */
const CAPTURE_WAIT_MS = 5;

const port = parentPort;

function post(message: FromProcessingWorker): void {
  port?.postMessage(message);
}

/** The worker's lines go to the client's log on the main thread. */
const log: LogWriter = {
  verbose: () => undefined,
  info: (message) => {
    post({ type: 'log', level: 'info', message });
  },
  warn: (message) => {
    post({ type: 'log', level: 'warn', message });
  },
  error: (message) => {
    post({ type: 'log', level: 'error', message });
  },
  secret: () => undefined,
  child: () => log,
};

async function serve(data: ProcessingWorkerData): Promise<void> {
  let link: VoiceProcessingLink | undefined;
  const processor = new VoiceProcessor(log);
  try {
    const engine = createMediaEngine({
      prefer: 'native',
      loadNativeAddon: () => loadNativeAddon({ searchPaths: [data.addonPath] }),
    });
    link = engine.openProcessingLink(data.linkId);
    await processor.set(data.settings);
  } catch (error) {
    post({ type: 'failed', message: (error as Error).message });
    processor.close();
    link?.dispose();
    return;
  }
  let stopping = false;
  port?.on('message', (message: ToProcessingWorker) => {
    if (message.type === 'stop') {
      stopping = true;
      return;
    }
    processor.set(message.settings).then(
      () => {
        post({ type: 'applied', settings: message.settings });
      },
      (error: unknown) => {
        post({ type: 'log', level: 'warn', message: `voice processing: ${(error as Error).message}` });
      },
    );
  });
  post({ type: 'ready' });
  try {
    await pump(link, processor, () => stopping);
  } catch (error) {
    post({ type: 'failed', message: (error as Error).message });
  } finally {
    processor.close();
    link.dispose();
    port?.close();
  }
}

/**
 * The loop: the playout first (the echo canceller's reference must lead the microphone it is heard in), then
 * one microphone block, processed and handed on. Between blocks the event loop gets a turn, so settings
 * changes arrive; a block waits at most {@link CAPTURE_WAIT_MS} on the microphone.
 */
async function pump(
  link: VoiceProcessingLink,
  processor: VoiceProcessor,
  stopping: () => boolean,
): Promise<void> {
  const capture = new Int16Array(BLOCK_SAMPLES);
  const render = new Int16Array(BLOCK_SAMPLES);
  while (!stopping()) {
    while (link.readRender(render)) processor.render(render);
    if (link.readCapture(capture, CAPTURE_WAIT_MS)) {
      while (link.readRender(render)) processor.render(render);
      processor.process(capture);
      link.writeProcessed(capture);
    }
    await new Promise<void>((resolve) => {
      setImmediate(resolve);
    });
  }
}

// Last, once everything above is defined.
if (port) void serve(workerData as ProcessingWorkerData);

import type { LogWriter } from '../../packages/sdkpp/src/logging/index.js';

/** A log writer that keeps its warnings and errors (in `warnings`) and drops everything else. */
export function recordingLog(): { log: LogWriter; warnings: string[] } {
  const warnings: string[] = [];
  const log: LogWriter = {
    verbose: () => undefined,
    info: () => undefined,
    warn: (line: string) => warnings.push(line),
    error: (line: string) => warnings.push(line),
    secret: () => undefined,
    child: () => log,
  };
  return { log, warnings };
}

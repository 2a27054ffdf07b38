// The `busy` load of bench/systemAudio.ts on its own, for running tests beside it (issue 35: the suite's
// audio tests must pass with it running): a headless Chromium rendering, `npm install` from the npm cache
// over and over, and two shells starting short processes. Stops after the given seconds, on Ctrl-C or
// SIGTERM, killing every process it started.
// Run: npx tsx bench/lib/loadBeside.ts [seconds=120] & npm test -- test/integration/systemAudio*.test.ts
import { unpackedChromium } from '../../test/setup/chromium.js';
import { startLoad, stopAllLoads } from './machineLoad.js';

const seconds = Number(process.argv[2] ?? 120);
startLoad('busy', await unpackedChromium());
process.stderr.write(`loadBeside: busy load for ${seconds} s\n`);
const stop = (): void => {
  stopAllLoads();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setTimeout(stop, seconds * 1000);

import path from 'node:path';

import { synthesizeSpeech, writeWavFile } from '../../src/emulator/index.js';

/** Says `text` with the emulator's speech synthesizer in `voice` and writes it as `dir/name` (a WAV file). */
export async function speechFile(
  dir: string,
  name: string,
  text: string,
  voice: string,
): Promise<{ file: string; pcm: Int16Array }> {
  const { pcm } = await synthesizeSpeech(text, { voice });
  const file = path.join(dir, name);
  writeWavFile(file, pcm);
  return { file, pcm };
}

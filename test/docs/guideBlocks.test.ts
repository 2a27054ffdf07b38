import { describe, expect, it } from 'vitest';

import { containsInOrder, runnableBlocks } from './guideBlocks.js';

const GUIDE = [
  '# Lobbies',
  '',
  'Intro.',
  '',
  '```ts',
  "import { Client } from 'sdkpp';",
  '// Open a lobby',
  'console.log(1);',
  '```',
  '',
  'It prints:',
  '',
  '```text',
  'one',
  '',
  '  two  ',
  '```',
  '',
  '```ts fragment',
  'window.sdk.join();',
  '```',
  '',
  '## Leaving',
  '',
  '````ts',
  'const fence = "```";',
  '````',
  '',
  '## Elsewhere',
  '',
  '```text',
  'not the output of the block above: another section',
  '```',
].join('\n');

describe('guide block extraction', () => {
  const blocks = runnableBlocks('lobbies.md', GUIDE);

  it('takes only blocks whose info string is exactly ts, longer fences included', () => {
    expect(blocks.map((b) => [b.index, b.line])).toEqual([
      [1, 5],
      [2, 25],
    ]);
    expect(blocks[1]?.code).toBe('const fence = "```";\n');
  });

  it('names a block by its first comment line, else by its heading', () => {
    expect(blocks.map((b) => b.title)).toEqual(['Open a lobby', 'Leaving']);
  });

  it('expects the output of a text block that follows under the same heading, line by line', () => {
    expect(blocks[0]?.expectedOutput).toEqual(['one', 'two']);
    expect(blocks[1]?.expectedOutput).toBeUndefined();
  });
});

describe('output matching', () => {
  it('finds the expected lines in order, each inside a later output line', () => {
    expect(containsInOrder('a\nsaid one here\nx\ntwo!\n', ['one', 'two'])).toEqual({ ok: true });
    expect(containsInOrder('two\none\n', ['one', 'two'])).toEqual({ ok: false, missing: 'two' });
    expect(containsInOrder('one two\n', ['one', 'two'])).toEqual({ ok: false, missing: 'two' });
  });
});

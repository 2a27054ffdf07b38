import { afterEach, expect, it } from 'vitest';

import { DaveTestCall, type TestMember } from '../unit/dave/daveHarness.js';

// The mixed call of test/unit/dave with our native media engine: our DaveProtocolSession's sender keys
// key the C++ DAVE encryptor and decryptors, and their frames cross with davey's (encryptOpus / decrypt)
// after every change of the group.

let call: DaveTestCall;
afterEach(() => call.close());

it('ours (native frames) and davey: joins, leaves, codes and frames at every step', async () => {
  call = new DaveTestCall({ engine: 'native' });
  const present: TestMember[] = [];
  const steps: ['join', 'ours' | 'davey', string][] = [
    ['join', 'ours', '7000'],
    ['join', 'davey', '7001'],
    ['join', 'ours', '7002'],
    ['join', 'davey', '7003'],
  ];
  for (const [, kind, userId] of steps) {
    present.push(await call.join(kind, userId));
    await call.settle();
    if (present.length < 2) continue;
    expect(new Set(present.map((m) => m.privacyCode())).size).toBe(1);
    expect(call.crossCheck()).toEqual([]);
  }
  for (const gone of ['7000', '7003']) {
    call.leave(gone);
    present.splice(
      present.findIndex((m) => m.userId === gone),
      1,
    );
    await call.settle();
    expect(new Set(present.map((m) => m.privacyCode())).size).toBe(1);
    expect(call.crossCheck()).toEqual([]);
  }
  const [a, b] = present;
  if (!a || !b) throw new Error('two members expected');
  expect(await a.verificationCode(b.userId)).toBe(await b.verificationCode(a.userId));
});

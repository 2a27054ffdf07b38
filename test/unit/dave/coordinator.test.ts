import { randomBytes } from 'node:crypto';

import { generateDisplayableCode, generatePairwiseFingerprint } from '@snazzah/davey';
import { afterEach, describe, expect, it } from 'vitest';

import {
  displayableCode,
  pairwiseFingerprint,
} from '../../../packages/sdkpp/src/media/dave/session/index.js';
import { proposalRef } from '../../../packages/protocol/src/dave/wire.js';
import { ExternalSender } from '../../../packages/emulator/src/voice/dave/externalSender.js';
import { FakeClock } from '../../fakes/FakeClock.js';
import { DaveTestCall, OurMember, type Frame } from './daveHarness.js';

let call: DaveTestCall | undefined;
afterEach(() => call?.close());

describe('codes agree with davey', () => {
  it('displayable codes of random data', () => {
    for (let i = 0; i < 50; i++) {
      const data = randomBytes(64);
      expect(displayableCode(data, 30, 5)).toBe(generateDisplayableCode(data, 30, 5));
      expect(displayableCode(data, 45, 5)).toBe(generateDisplayableCode(data, 45, 5));
    }
  });

  it('pairwise fingerprints of random keys, in both orders', async () => {
    for (let i = 0; i < 3; i++) {
      const a = { signatureKey: randomBytes(65), userId: String(1000n + BigInt(i)) };
      const b = { signatureKey: randomBytes(65), userId: '987654321098765432' };
      const theirs = await generatePairwiseFingerprint(
        0,
        Buffer.from(a.signatureKey),
        a.userId,
        Buffer.from(b.signatureKey),
        b.userId,
      );
      expect(Buffer.from(await pairwiseFingerprint(a, b))).toEqual(theirs);
      expect(Buffer.from(await pairwiseFingerprint(b, a))).toEqual(theirs);
    }
  });
});

describe('the voice server side', () => {
  it('op 25 is an RFC ExternalSender: uncompressed P-256 key, basic credential', () => {
    const sender = new ExternalSender();
    const bytes = Buffer.from(sender.package);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0x40, 0x41, 0x04]));
    expect(bytes.subarray(67)).toEqual(Buffer.from([0, 1, 1, 0]));
    expect(bytes).toHaveLength(71);
  });

  it('ProposalRefs are distinct per proposal and stable per message', () => {
    const sender = new ExternalSender();
    const a = sender.propose(Uint8Array.of(1, 2), 3n, { remove: 1 });
    const b = sender.propose(Uint8Array.of(1, 2), 3n, { remove: 2 });
    expect(proposalRef(a)).toHaveLength(32);
    expect(proposalRef(a)).toEqual(proposalRef(a));
    expect(proposalRef(a)).not.toEqual(proposalRef(b));
  });

  it('refuses a key package whose credential names another user', async () => {
    call = new DaveTestCall();
    await call.join('ours', '5000');
    await call.settle();
    const keyPackage = call.clientFrames.find((f) => f.op === 26)?.payload;
    if (!keyPackage) throw new Error('no key package');
    await call.join('davey', '5001');
    await call.settle();
    const epoch = call.coordinator.epoch;
    call.coordinator.onKeyPackage('5001', keyPackage); // 5000's package, sent by 5001
    await call.settle();
    expect(call.serverLog.at(-1)).toMatch(/refused key package of 5001: credential is another user/);
    expect(call.coordinator.epoch).toBe(epoch);
  });

  it('executes a transition after its timeout when a member never answers op 23', async () => {
    const clock = new FakeClock();
    call = new DaveTestCall({ clock });
    const executed: number[] = [];
    call.tamper = (_to, op, frame) => {
      if (op === 22) executed.push(op);
      return frame;
    };
    const coordinator = call.coordinator;
    const ready = coordinator.onTransitionReady.bind(coordinator);
    coordinator.onTransitionReady = (userId, tid) => {
      if (userId !== '6001') ready(userId, tid);
    };
    await call.join('ours', '6000');
    await call.settle();
    await call.join('davey', '6001');
    await call.settle();
    expect(executed).toEqual([]);
    clock.advance(9_999);
    await call.settle();
    expect(executed).toEqual([]);
    clock.advance(1);
    await call.settle();
    expect(executed).toEqual([22, 22]);
    expect(call.serverLog.some((l) => l.includes('timed out'))).toBe(true);
  });
});

it('downgradeToV0: every member passes through after op 22, MLS state is gone', async () => {
  call = new DaveTestCall();
  await call.join('ours', '8000');
  await call.join('davey', '8001');
  await call.settle();
  const ours = call.members.get('8000');
  if (!(ours instanceof OurMember)) throw new Error('our member expected');
  const keys: (Uint8Array | null)[] = [];
  ours.session.on('sendKey', (key) => keys.push(key));
  call.coordinator.downgradeToV0();
  await call.settle();
  expect(call.coordinator.protocolVersion).toBe(0);
  expect(call.coordinator.memberIds).toEqual([]);
  expect(keys).toEqual([null]);
  expect(ours.session.protocolVersion).toBe(0);
  call.leave('8001'); // no sole-member reset in version 0
  await call.settle();
  expect(ours.sent.at(-1)).toBe(23);
});

it('a member that starts over without op 31 (a new key package) is removed and re-added', async () => {
  call = new DaveTestCall();
  await call.join('davey', '8100');
  await call.join('ours', '8101');
  await call.join('davey', '8102');
  await call.settle();
  const member = call.members.get('8101');
  if (!(member instanceof OurMember)) throw new Error('our member expected');
  const epoch = call.coordinator.epoch;
  call.serverSend(['8101'], 24, { json: { epoch: 1, protocol_version: 1 } }); // as a confused server would
  await call.settle();
  expect(call.serverLog.some((l) => l.includes('8101 sent a new key package while in the group'))).toBe(true);
  expect(call.coordinator.epoch).toBe(epoch + 2n);
  expect(member.sent.includes(31)).toBe(false);
  const members = [...call.members.values()];
  expect(new Set(members.map((m) => m.privacyCode())).size).toBe(1);
  expect(call.crossCheck()).toEqual([]);
});

it('a joiner’s newer key package revokes the Add of its older one before anyone commits it', async () => {
  call = new DaveTestCall();
  await call.join('ours', '8200');
  await call.join('davey', '8201');
  await call.settle();
  const held: [string, Frame][] = [];
  call.tamper = (to, op, frame) => {
    if (op !== 27) return frame;
    held.push([to, frame]);
    return null;
  };
  const joiner = await call.join('ours', '8202');
  await call.settle();
  call.serverSend(['8202'], 24, { json: { epoch: 1, protocol_version: 1 } }); // the joiner starts over
  await call.settle();
  expect(held).toHaveLength(6); // to both members: the first Add, its revoke, the new Add
  call.tamper = undefined;
  for (const [to, frame] of held) await call.members.get(to)?.deliver(frame);
  await call.settle();
  expect(joiner.sent.includes(31)).toBe(false);
  expect(call.coordinator.memberIds).toEqual(['8200', '8201', '8202']);
  const members = [...call.members.values()];
  expect(new Set(members.map((m) => m.privacyCode())).size).toBe(1);
  expect(call.crossCheck()).toEqual([]);
});

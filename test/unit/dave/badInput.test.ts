import { randomBytes } from 'node:crypto';

import { afterEach, describe, expect, it } from 'vitest';

import { loadTsMls } from '../../../packages/protocol/src/dave/tsMls.js';
import { concatBytes, snowflakeBE64 } from '../../../packages/protocol/src/dave/wire.js';
import { ExternalSender } from '../../../packages/emulator/src/voice/dave/externalSender.js';
import { CHANNEL_ID, DaveTestCall, OurMember, type Frame, type TestMember } from './daveHarness.js';
import { daveCipherSuite } from '../../../packages/protocol/src/dave/tsMls.js';
import { generateP256KeyPair } from '../../../packages/protocol/src/dave/nodeP256.js';

// Bad input reaches a DaveProtocolSession: each is refused as the reference implementations do (a bad
// proposal is ignored; a commit or welcome that cannot be used leads to op 31 and a new key package, after
// which the voice server removes and re-adds the member), with a log line and never a throw. The call
// must end up in one working group again.

let call: DaveTestCall;
afterEach(() => call.close());

async function group(kinds: ('ours' | 'davey')[]): Promise<TestMember[]> {
  const members: TestMember[] = [];
  for (const [i, kind] of kinds.entries()) {
    members.push(await call.join(kind, String(4000 + i)));
    await call.settle();
  }
  return members;
}

function ours(member: TestMember | undefined): OurMember {
  if (!(member instanceof OurMember)) throw new Error('our member expected');
  return member;
}

function expectOneGroup(members: TestMember[]): void {
  expect(new Set(members.map((m) => m.privacyCode())).size).toBe(1);
  expect(members[0]?.privacyCode()).toMatch(/^\d{30}$/);
  expect(call.crossCheck()).toEqual([]);
}

function binary(frame: Frame): Uint8Array {
  if (!('binary' in frame)) throw new Error('binary frame expected');
  return frame.binary;
}

/** A server frame with its payload replaced (sequence number and opcode kept). */
function withPayload(frame: Frame, payload: Uint8Array): Frame {
  return { binary: concatBytes(binary(frame).subarray(0, 3), payload) };
}

describe('refused input leads to the reference recovery', () => {
  it('a forged commit (bad signature): op 31, new key package, removed and re-added', async () => {
    call = new DaveTestCall();
    const members = await group(['davey', 'ours']);
    const victim = ours(members[1]);
    const mls = await loadTsMls();
    let forged = 0;
    call.tamper = (to, op, frame) => {
      if (op !== 29 || to !== victim.userId || forged > 0) return frame;
      const bytes = binary(frame);
      const decoded = mls.decode(mls.mlsMessageDecoder, bytes.subarray(5));
      if (decoded?.wireformat !== mls.wireformats.mls_public_message) throw new Error('not a commit');
      const signature = decoded.publicMessage.auth.signature.slice();
      signature[signature.length - 3] = (signature[signature.length - 3] ?? 0) ^ 0x40;
      decoded.publicMessage.auth.signature = signature;
      forged++;
      return withPayload(
        frame,
        concatBytes(bytes.subarray(3, 5), mls.encode(mls.mlsMessageEncoder, decoded)),
      );
    };
    members.push(await call.join('davey', '4002'));
    await call.settle();
    expect(forged).toBe(1);
    expect(victim.logs.some((l) => l.includes('commit not accepted by MLS'))).toBe(true);
    expect(victim.sent.filter((op) => op === 31)).toHaveLength(1);
    expect(victim.sent.filter((op) => op === 26)).toHaveLength(2);
    expect(call.serverLog.some((l) => l.includes('reported transition') && l.includes(victim.userId))).toBe(
      true,
    );
    expectOneGroup(members);
  });

  it('a Welcome for another group: op 31, then a working re-add', async () => {
    call = new DaveTestCall();
    const members = await group(['ours']);
    const joiner = new Promise<TestMember>((resolve) => {
      void call.join('ours', '4001').then(resolve);
    });
    const mls = await loadTsMls();
    const cipherSuite = await daveCipherSuite();
    let replaced = 0;
    const originalTamper = async (): Promise<Uint8Array> => {
      // A real Welcome, encrypted to the joiner's own key package, for a group with another id.
      const keyPackageBytes = call.clientFrames
        .filter((f) => f.userId === '4001' && f.op === 26)
        .at(-1)?.payload;
      const keyPackage = keyPackageBytes && mls.decode(mls.keyPackageDecoder, keyPackageBytes);
      if (!keyPackage) throw new Error('no key package');
      const signatureKeyPair = generateP256KeyPair();
      const creator = await mls.generateKeyPackageWithKey({
        credential: { credentialType: 1, identity: snowflakeBE64('4999') },
        capabilities: { versions: [1], ciphersuites: [2], extensions: [], proposals: [], credentials: [1] },
        lifetime: { notBefore: 0n, notAfter: 2n ** 64n - 1n },
        extensions: [],
        signatureKeyPair,
        cipherSuite,
      });
      const sender = new ExternalSender();
      const context = { cipherSuite, authService: { validateCredential: () => Promise.resolve(true) } };
      const state = await mls.createGroup({
        context,
        groupId: snowflakeBE64('1234'),
        keyPackage: creator.publicPackage,
        privateKeyPackage: creator.privatePackage,
        extensions: [
          {
            extensionType: 5,
            extensionData: {
              signaturePublicKey: sender.publicKey,
              credential: { credentialType: 1, identity: sender.identity },
            },
          },
        ],
      });
      const { welcome } = await mls.createCommit({
        context,
        state,
        extraProposals: [{ proposalType: 1, add: { keyPackage } }],
        ratchetTreeExtension: true,
        wireAsPublicMessage: true,
      });
      if (!welcome) throw new Error('no welcome');
      return mls.encode(mls.mlsMessageEncoder, welcome).subarray(4);
    };
    const foreign = { welcome: undefined as Promise<Uint8Array> | undefined };
    call.tamper = (to, op, frame) => {
      if (op !== 30 || to !== '4001' || replaced > 0) return frame;
      replaced++;
      foreign.welcome = originalTamper();
      return null; // delivered below, once built
    };
    await call.settle();
    const welcome = await foreign.welcome;
    if (!welcome) throw new Error('the joiner got no Welcome');
    call.serverSend(['4001'], 30, { binary: concatBytes(Uint8Array.of(0, 1), welcome) });
    await call.settle();
    const member = ours(await joiner);
    expect(member.logs.some((l) => l.includes('Welcome to another group'))).toBe(true);
    expect(member.sent.filter((op) => op === 31)).toHaveLength(1);
    members.push(member);
    expectOneGroup(members);
    expect(CHANNEL_ID).not.toBe('1234');
  });

  it('stale-epoch proposals are ignored (no commit, no op 31)', async () => {
    call = new DaveTestCall();
    const proposals: Frame[] = [];
    call.tamper = (_to, op, frame) => {
      if (op === 27) proposals.push(frame);
      return frame;
    };
    const members = await group(['ours', 'ours', 'davey']);
    const first = ours(members[0]);
    const stale = proposals[0];
    if (!stale) throw new Error('no proposals were sent');
    const sentBefore = first.sent.length;
    call.serverSend([first.userId], 27, { binary: binary(stale).subarray(3) });
    await call.settle();
    expect(first.logs.at(-1)).toMatch(/proposal for epoch 0, we are at 2/);
    expect(first.sent.length).toBe(sentBefore);
    expectOneGroup(members);
  });

  it('proposals not from the voice server’s external sender are ignored', async () => {
    call = new DaveTestCall();
    const members = await group(['ours', 'davey']);
    const first = ours(members[0]);
    const impostor = new ExternalSender();
    const message = impostor.propose(snowflakeBE64(CHANNEL_ID), call.coordinator.epoch, { remove: 1 });
    const sentBefore = first.sent.length;
    call.serverSend([first.userId], 27, {
      binary: concatBytes(
        Uint8Array.of(0),
        Uint8Array.of(0x40 | (message.length >> 8), message.length & 0xff),
        message,
      ),
    });
    await call.settle();
    expect(first.logs.at(-1)).toMatch(/proposal not accepted by MLS/);
    expect(first.sent.length).toBe(sentBefore);
    expectOneGroup(members);
  });

  it('garbage payloads never throw: ignored, or recovered from', async () => {
    call = new DaveTestCall();
    const members = await group(['ours', 'davey']);
    const first = ours(members[0]);
    for (const op of [25, 27, 29, 30, 99]) {
      for (const size of [0, 1, 2, 5, 64, 700]) {
        call.serverSend([first.userId], op, { binary: randomBytes(size) });
      }
    }
    call.serverSend([first.userId], 21, { json: { transition_id: 'x' } });
    call.serverSend([first.userId], 22, { json: null });
    call.serverSend([first.userId], 24, { json: [] });
    // And the voice server side: garbage from a member.
    call.coordinator.onKeyPackage(first.userId, randomBytes(50));
    call.coordinator.onCommitWelcome(first.userId, randomBytes(300));
    call.coordinator.onTransitionReady(first.userId, 65535);
    await call.settle();
    expect(first.logs.filter((l) => l.includes('refused')).length).toBeGreaterThan(20);
    expect(call.serverLog.some((l) => l.includes('refused key package'))).toBe(true);
    expect(call.serverLog.some((l) => l.includes('refused commit'))).toBe(true);
    expectOneGroup(members);
  });

  it('a Welcome for an earlier key package of ours is stale: ignored without op 31, then a working re-add', async () => {
    call = new DaveTestCall();
    const members = await group(['davey']);
    const held: Frame[] = [];
    call.tamper = (to, op, frame) => {
      if (op !== 30 || to !== '4001') return frame;
      held.push(frame);
      return null;
    };
    const joiner = ours(await call.join('ours', '4001'));
    await call.settle();
    expect(held).toHaveLength(1);
    // The joiner restarts (as after any recovery) before the Welcome for its first key package arrives.
    joiner.session.reportDecryptFailures(100);
    await call.settle();
    const recoveries = joiner.sent.filter((op) => op === 31).length;
    expect(held).toHaveLength(2); // the first key package's Welcome, and the re-add's
    call.tamper = undefined;
    for (const welcome of held) await joiner.deliver(welcome);
    await call.settle();
    expect(joiner.logs.some((l) => l.includes('a Welcome for another key package'))).toBe(true);
    expect(joiner.sent.filter((op) => op === 31)).toHaveLength(recoveries);
    expectOneGroup([...members, joiner]);
  });

  it('decrypt failures past the tolerance recover with op 31 and a re-add', async () => {
    call = new DaveTestCall();
    const members = await group(['davey', 'ours']);
    const member = ours(members[1]);
    const epoch = call.coordinator.epoch;
    member.session.reportDecryptFailures(35);
    await call.settle();
    expect(member.sent.includes(31)).toBe(false);
    member.session.reportDecryptFailures(36);
    await call.settle();
    expect(member.sent.filter((op) => op === 31)).toHaveLength(1);
    expect(call.coordinator.epoch).toBe(epoch + 2n); // removed, then added again
    expectOneGroup(members);
  });
});

describe('protocol version changes', () => {
  it('downgrade to v0 (op 21 v0 → passthrough at op 22), upgrade by op 24 epoch 1', async () => {
    call = new DaveTestCall();
    const members = await group(['ours']);
    const member = ours(members[0]);
    const keys: (Uint8Array | null)[] = [];
    member.session.on('sendKey', (key) => keys.push(key));
    call.serverSend([member.userId], 21, { json: { transition_id: 7, protocol_version: 0 } });
    await call.settle();
    expect(member.sent.at(-1)).toBe(23);
    call.serverSend([member.userId], 22, { json: { transition_id: 7 } });
    await call.settle();
    expect(keys).toEqual([null]);
    expect(member.session.protocolVersion).toBe(0);
    expect(member.session.epoch).toBeNull();
    call.serverSend([member.userId], 24, { json: { epoch: 1, protocol_version: 1 } });
    call.serverSend([member.userId], 21, { json: { transition_id: 0, protocol_version: 1 } });
    await call.settle();
    expect(member.session.protocolVersion).toBe(1);
    expect(member.sent.at(-1)).toBe(26);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toHaveLength(16);
  });
});

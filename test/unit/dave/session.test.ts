import { afterEach, describe, expect, it } from 'vitest';

import { DaveTestCall, DaveyMember, OurMember, type Frame, type TestMember } from './daveHarness.js';

// DaveProtocolSession and @snazzah/davey members in one call, through our DaveCoordinator, every message
// framed as on the wire (test/unit/dave/daveHarness.ts). After each change every member must hold the same
// epoch and privacy code, and every member's frames must decrypt at every other member.

let call: DaveTestCall;
afterEach(() => call.close());

/** Asserts one group: one epoch, one privacy code, frames decrypt everywhere; returns the code. */
function expectSameGroup(members: TestMember[]): string {
  const codes = new Set(members.map((m) => m.privacyCode()));
  expect(codes.size, `privacy codes ${[...codes].join(' ')}`).toBe(1);
  const [code] = codes;
  expect(code).toMatch(/^\d{30}$/);
  expect(new Set(members.map((m) => m.epoch())).size).toBe(1);
  expect(call.crossCheck()).toEqual([]);
  return code ?? '';
}

async function expectVerificationCodes(a: TestMember, b: TestMember): Promise<void> {
  const [ab, ba] = await Promise.all([a.verificationCode(b.userId), b.verificationCode(a.userId)]);
  expect(ab).toMatch(/^\d{45}$/);
  expect(ab).toBe(ba);
}

/** `list[index]`, which must exist. */
function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

async function joinAll(kinds: ('ours' | 'davey')[]): Promise<TestMember[]> {
  const members: TestMember[] = [];
  for (const [i, kind] of kinds.entries()) {
    members.push(await call.join(kind, String(2000 + i)));
    await call.settle();
  }
  return members;
}

describe('two members', () => {
  it('ours + ours: one group, frames both ways, equal codes', async () => {
    call = new DaveTestCall();
    const [a, b] = (await joinAll(['ours', 'ours'])) as [TestMember, TestMember];
    expectSameGroup([a, b]);
    expect(call.coordinator.memberIds).toEqual(['2000', '2001']);
    expect(call.coordinator.epoch).toBe(1n);
    await expectVerificationCodes(a, b);
  });

  it('ours commits, davey joins from our Welcome', async () => {
    call = new DaveTestCall();
    const [ours, davey] = (await joinAll(['ours', 'davey'])) as [TestMember, TestMember];
    expect(ours.sent).toContain(28);
    expect(davey.sent).not.toContain(28);
    expectSameGroup([ours, davey]);
    await expectVerificationCodes(ours, davey);
  });

  it('davey commits, ours joins from davey’s Welcome', async () => {
    call = new DaveTestCall();
    const [davey, ours] = (await joinAll(['davey', 'ours'])) as [TestMember, TestMember];
    expect(davey.sent).toContain(28);
    expect(ours.sent).not.toContain(28);
    expectSameGroup([ours, davey]);
    await expectVerificationCodes(ours, davey);
  });

  it('our sender key switches only when the transition executes (op 22)', async () => {
    call = new DaveTestCall();
    const held: string[] = [];
    call.tamper = (to, op, frame) => {
      if (op === 22) {
        held.push(to);
        return null;
      }
      return frame;
    };
    const [a, b] = await joinAll(['ours', 'ours']);
    expect(held.sort()).toEqual(['2000', '2001']);
    if (!(a instanceof OurMember) || !b) throw new Error('two of our members expected');
    expect(a.sendKeys).toBe(0); // receive keys are in place, send keys wait for op 22
    expect(b.privacyCode()).toBe(a.privacyCode());
  });
});

describe('mixed groups', () => {
  it('3 members, ours and davey: each processes the other’s commits', async () => {
    call = new DaveTestCall();
    const members = await joinAll(['davey', 'ours', 'davey', 'ours']);
    expectSameGroup(members);
    expect(call.coordinator.epoch).toBe(3n);
    await expectVerificationCodes(at(members, 1), at(members, 2));
    await expectVerificationCodes(at(members, 0), at(members, 3));
  });

  it('removes need an UpdatePath: ours and davey commit Removes the others accept', async () => {
    call = new DaveTestCall();
    const members = await joinAll(['ours', 'davey', 'ours', 'davey']);
    call.leave('2000'); // the first committer leaves: the Remove is committed by whoever is first
    await call.settle();
    const rest = members.slice(1);
    expectSameGroup(rest);
    expect(call.coordinator.memberIds).toEqual(['2001', '2002', '2003']);
    call.leave('2002');
    await call.settle();
    expectSameGroup([at(members, 1), at(members, 3)]);
    expect(call.coordinator.memberIds).toEqual(['2001', '2003']);
  });

  it.each([
    ['ours', 'davey'],
    ['davey', 'ours'],
  ] as const)(
    'a Remove committed by %s (with its UpdatePath) is processed by %s',
    async (committer, processor) => {
      call = new DaveTestCall();
      const members = await joinAll([committer, processor, 'ours']);
      const [by, other, removed] = members;
      if (!by || !other || !removed) throw new Error('three members expected');
      // Only the chosen committer's commit reaches the server, so it is the one announced.
      call.dropFromClient = (userId, op) => op === 28 && userId !== by.userId;
      const commitsBefore = by.sent.filter((op) => op === 28).length;
      call.leave(removed.userId);
      await call.settle();
      expect(by.sent.filter((op) => op === 28).length).toBe(commitsBefore + 1);
      expect(call.coordinator.memberIds).toEqual([by.userId, other.userId]);
      expectSameGroup([by, other]);
      // The removed member holds only old keys: the new epoch's frames are closed to it.
      expect(removed.decrypt(by.userId, by.encrypt(Buffer.from('after the remove')))).toBeNull();
      if (other instanceof OurMember && by instanceof DaveyMember) {
        expect(Buffer.from(other.session.epochAuthenticator ?? [])).toEqual(
          by.session.getEpochAuthenticator(),
        );
      }
      if (by instanceof OurMember && other instanceof DaveyMember) {
        expect(Buffer.from(by.session.epochAuthenticator ?? [])).toEqual(
          other.session.getEpochAuthenticator(),
        );
      }
    },
  );

  it.each([
    ['ours', 'davey'],
    ['davey', 'ours'],
  ] as const)('an Add committed by %s is processed by %s', async (committer, processor) => {
    call = new DaveTestCall();
    const [by, other] = await joinAll([committer, processor]);
    if (!by || !other) throw new Error('two members expected');
    call.dropFromClient = (userId, op) => op === 28 && userId !== by.userId;
    const commitsBefore = by.sent.filter((op) => op === 28).length;
    const joiner = await call.join('ours', '2100');
    await call.settle();
    expect(by.sent.filter((op) => op === 28).length).toBe(commitsBefore + 1);
    expect(other.sent.filter((op) => op === 31)).toEqual([]);
    expectSameGroup([by, other, joiner]);
  });

  it('between op 29 and op 22 existing members still hear each other (old and new keys overlap)', async () => {
    call = new DaveTestCall();
    const [a, b] = await joinAll(['ours', 'davey']);
    if (!a || !b) throw new Error('two members expected');
    const held: [string, Frame][] = [];
    call.tamper = (to, op, frame) => {
      if (op !== 22) return frame;
      held.push([to, frame]);
      return null;
    };
    const c = await call.join('ours', '2200');
    await call.settle();
    expect(held).toHaveLength(3); // the transition waits for its execute
    // ours still sends with the old epoch's key, davey already with the new one (it switches at commit).
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const frame = Buffer.from(`from ${from.userId}`);
      expect(Buffer.from(to.decrypt(from.userId, from.encrypt(frame)) ?? [])).toEqual(frame);
    }
    call.tamper = undefined;
    for (const [to, frame] of held) await call.members.get(to)?.deliver(frame);
    await call.settle();
    expectSameGroup([a, b, c]);
  });

  it('the last member left alone resets (op 24 epoch 1, op 21 tid 0) and the group grows again', async () => {
    call = new DaveTestCall();
    const [a] = (await joinAll(['ours', 'davey'])) as [TestMember, TestMember];
    call.leave('2001');
    await call.settle();
    expect(call.coordinator.memberIds).toEqual(['2000']);
    expect(call.coordinator.epoch).toBe(0n);
    const c = await call.join('davey', '2005');
    await call.settle();
    expectSameGroup([a, c]);
  });

  it('revoke: a joiner that leaves before being committed is revoked, no commit is made', async () => {
    call = new DaveTestCall();
    const [a, b] = (await joinAll(['ours', 'davey'])) as [TestMember, TestMember];
    const epoch = call.coordinator.epoch;
    const commitsBefore = [a, b].map((m) => m.sent.filter((op) => op === 28).length);
    // Hold the new joiner's Add from reaching the members until after the revoke is queued.
    const held: { to: string; frame: Parameters<NonNullable<typeof call.tamper>>[2] }[] = [];
    call.tamper = (to, op, frame) => {
      if (op === 27) {
        held.push({ to, frame });
        return null;
      }
      return frame;
    };
    await call.join('ours', '2009');
    await call.settle();
    call.leave('2009', true); // members still recognize 2009 when the held Add reaches them
    await call.settle();
    call.tamper = undefined;
    expect(held.length).toBe(4); // append and revoke, to both members
    for (const { to, frame } of held) await call.members.get(to)?.deliver(frame);
    await call.settle();
    const commitsAfter = [a, b].map((m) => m.sent.filter((op) => op === 28).length);
    expect(commitsAfter).toEqual(commitsBefore.map((n) => n + 1)); // only the commit for the append …
    expect(call.coordinator.epoch).toBe(epoch); // … which the gateway refuses: it does not commit all refs
    expect(call.serverLog.filter((l) => l.includes('refused commit')).length).toBe(2);
    expectSameGroup([a, b]);
  });

  it('churn: 20 joins and leaves, frames decrypt at every member after each transition', async () => {
    call = new DaveTestCall();
    const present: TestMember[] = [];
    let next = 3000;
    const kinds: ('ours' | 'davey')[] = ['ours', 'davey'];
    const committers = { ours: 0, davey: 0 };
    for (let change = 0; change < 20; change++) {
      const leave = present.length >= 4 || (present.length >= 2 && change % 3 === 2);
      const gone = leave ? present.splice((change * 7) % present.length, 1)[0] : undefined;
      // Each change, one implementation is preferred as committer: the other's commits are held back
      // whenever a member of the preferred kind stays in the group to commit instead.
      const preferred = at(kinds, Math.floor(change / 2) % 2);
      const canCommit = present.some((m) => m.kind === preferred);
      call.dropFromClient = (userId, op) => {
        const kind = call.members.get(userId)?.kind;
        if (op !== 28 || kind === undefined) return false;
        if (canCommit && kind !== preferred) return true;
        committers[kind]++;
        return false;
      };
      if (gone) call.leave(gone.userId);
      else present.push(await call.join(at(kinds, change % 2), String(next++)));
      await call.settle();
      if (present.length >= 2) expectSameGroup(present);
      expect([...call.coordinator.memberIds].sort()).toEqual(present.map((m) => m.userId).sort());
    }
    expect(committers.ours).toBeGreaterThan(3);
    expect(committers.davey).toBeGreaterThan(3);
    for (const m of present) expect(m.sent.includes(31), `${m.userId} needed a recovery`).toBe(false);
  });
});

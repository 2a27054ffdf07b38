// DAVE MLS cost per group size N, ours (DaveProtocolSession on patched ts-mls, P-256 on node:crypto) vs
// @snazzah/davey (Rust, OpenMLS) measured in the same run, one JSON line each (unit ms, ratio = davey / ours):
//   mls-commit-N  a member of an N-member group turns the voice server's external Add proposal (op 27) into
//                 a commit + Welcome (op 28), and another member processes that commit (op 29)
//   mls-join-N    the added member joins from the bare Welcome (op 30): tree validation, roster checks and,
//                 for ours, the sender keys of every member
// Both run the same protocol messages: proposals are signed by the emulator's external sender. Each group is
// made once by one bulk Add of N-1 key packages; every round then adds one member (so the group grows by one
// per round, a few percent at most). The two sides take turns, one round each, and each side's median round
// is reported, so that other work on the machine falls on both alike. Run: npx tsx bench/mls.ts
import { DAVESession, type ProposalsOperationType } from '@snazzah/davey';

import { DaveProtocolSession } from '../packages/sdkpp/src/media/dave/session/index.js';
import { loadTsMls } from '../packages/protocol/src/dave/tsMls.js';
import { concatBytes, snowflakeBE64, u16, withLength } from '../packages/protocol/src/dave/wire.js';
import { ExternalSender } from '../packages/emulator/src/voice/dave/externalSender.js';
import { report, result } from './lib/report.js';

const CHANNEL = '927310423890473011';
const GROUP_ID = snowflakeBE64(CHANNEL);
const SIZES: [n: number, rounds: number][] = [
  [2, 40],
  [8, 30],
  [25, 20],
  [100, 12],
  [250, 8], // a large lobby call
];
const WARM_UP_ROUNDS = 8;
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- davey's const enum: 0 = append
const APPEND = 0 as ProposalsOperationType;

const mls = await loadTsMls();
const sender = new ExternalSender();
let nextUser = 100_000n;
const newUserId = (): string => String(nextUser++);

function appendPayload(messages: Uint8Array[]): Uint8Array {
  return concatBytes(Uint8Array.of(0), withLength(concatBytes(...messages)));
}

/** Splits op 28 (commit ‖ bare Welcome). */
function splitCommit(payload: Uint8Array): { commit: Uint8Array; welcome: Uint8Array } {
  const decoded = mls.mlsMessageDecoder(payload, 0);
  if (!decoded) throw new Error('undecodable commit');
  return { commit: payload.subarray(0, decoded[1]), welcome: payload.subarray(decoded[1]) };
}

/** A bare key package of a throwaway member (davey makes them fastest; the bytes are standard). */
function fillerKeyPackage(userId: string): Uint8Array {
  return new DAVESession(1, userId, CHANNEL).getSerializedKeyPackage();
}

class Ours {
  readonly session: DaveProtocolSession;
  keyPackage: Uint8Array | undefined;
  lastCommit: Uint8Array | undefined;

  constructor(readonly userId: string) {
    this.session = new DaveProtocolSession({ selfUserId: userId, channelId: CHANNEL });
    this.session.on('sendBinary', (op, payload) => {
      if (op === 26) this.keyPackage = payload;
      if (op === 28) this.lastCommit = payload;
    });
  }

  static async create(userId: string): Promise<Ours> {
    const member = new Ours(userId);
    await member.session.onSessionDescription(1);
    await member.session.onBinary(25, sender.package);
    return member;
  }
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** ms of one round: commit create + process, and join. */
interface Round {
  commit: number;
  join: number;
}

/** Ours: a group of `n`, and a function that adds one member to it and times that (a Round). */
async function setUpOurs(n: number): Promise<() => Promise<Round>> {
  const creator = await Ours.create(newUserId());
  const processor = await Ours.create(newUserId());
  const fillers = Array.from({ length: n - 2 }, newUserId);
  creator.session.onClientsConnect([processor.userId, ...fillers]);
  const adds = [processor.keyPackage, ...fillers.map(fillerKeyPackage)].map((kp) => {
    if (!kp) throw new Error('no key package');
    return sender.propose(GROUP_ID, 0n, { add: kp });
  });
  await creator.session.onBinary(27, appendPayload(adds));
  if (!creator.lastCommit) throw new Error('no initial commit');
  const first = splitCommit(creator.lastCommit);
  await creator.session.onBinary(29, concatBytes(u16(1), first.commit));
  await processor.session.onBinary(30, concatBytes(u16(1), first.welcome));
  if (processor.session.epoch !== 1n) throw new Error('processor did not join');

  return async () => {
    const joiner = await Ours.create(newUserId());
    if (!joiner.keyPackage) throw new Error('no key package');
    creator.session.onClientsConnect([joiner.userId]);
    processor.session.onClientsConnect([joiner.userId]);
    const epoch = creator.session.epoch ?? 0n;
    const proposal = sender.propose(GROUP_ID, epoch, { add: joiner.keyPackage });
    creator.lastCommit = undefined;
    let start = process.hrtime.bigint();
    await creator.session.onBinary(27, appendPayload([proposal]));
    const created = ms(start); // before the bench's own split of op 28, which davey's side does not do
    if (!creator.lastCommit) throw new Error('no commit');
    const { commit, welcome } = splitCommit(creator.lastCommit);
    await processor.session.onBinary(27, appendPayload([proposal])); // the processor holds the proposal too
    start = process.hrtime.bigint();
    await processor.session.onBinary(29, concatBytes(u16(2), commit));
    const processed = ms(start);
    if (processor.session.epoch !== epoch + 1n) throw new Error('commit not processed');
    await creator.session.onBinary(29, concatBytes(u16(2), commit));
    start = process.hrtime.bigint();
    await joiner.session.onBinary(30, concatBytes(u16(2), welcome));
    const joined = ms(start);
    if (joiner.session.epoch !== epoch + 1n) throw new Error('welcome not processed');
    joiner.session.close();
    return { commit: created + processed, join: joined };
  };
}

function daveySession(userId: string): DAVESession {
  const session = new DAVESession(1, userId, CHANNEL);
  session.setExternalSender(Buffer.from(sender.package));
  return session;
}

/** davey, driven as discord.js drives it: the same group and the same round. */
function setUpDavey(n: number): () => Round {
  const creatorId = newUserId();
  const creator = daveySession(creatorId);
  const processorId = newUserId();
  const processor = daveySession(processorId);
  const fillers = Array.from({ length: n - 2 }, newUserId);
  const recognized = [creatorId, processorId, ...fillers];
  const adds = [processor.getSerializedKeyPackage(), ...fillers.map(fillerKeyPackage)].map((kp) =>
    sender.propose(GROUP_ID, 0n, { add: kp }),
  );
  const initial = creator.processProposals(APPEND, Buffer.from(appendPayload(adds).subarray(1)), recognized);
  if (!initial.commit || !initial.welcome) throw new Error('davey made no initial commit');
  creator.processCommit(initial.commit);
  processor.processWelcome(initial.welcome);

  return () => {
    const joinerId = newUserId();
    const joiner = daveySession(joinerId);
    recognized.push(joinerId);
    const epoch = creator.epoch ?? 0n;
    const proposal = sender.propose(GROUP_ID, epoch, { add: joiner.getSerializedKeyPackage() });
    const vector = Buffer.from(appendPayload([proposal]).subarray(1));
    let start = process.hrtime.bigint();
    const { commit, welcome } = creator.processProposals(APPEND, vector, recognized);
    const created = ms(start);
    if (!commit || !welcome) throw new Error('davey made no commit');
    processor.processProposals(APPEND, vector, recognized);
    start = process.hrtime.bigint();
    processor.processCommit(commit);
    const processed = ms(start);
    creator.processCommit(commit);
    start = process.hrtime.bigint();
    joiner.processWelcome(welcome);
    const joined = ms(start);
    if (joiner.epoch !== epoch + 1n || processor.epoch !== epoch + 1n) throw new Error('davey out of step');
    return { commit: created + processed, join: joined };
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

for (const [n, rounds] of SIZES) {
  const oursRound = await setUpOurs(n);
  const daveyRound = setUpDavey(n);
  const ours: Round[] = [];
  const davey: Round[] = [];
  // Warm-up rounds, then turns; who goes first alternates too. Several warm-up rounds, not one: the first size
  // measured would otherwise carry the process's JIT warm-up of ts-mls (the N=2 commit measured slower than
  // the N=8 one right after it), which the native peer does not have and no later line pays.
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    await oursRound();
    daveyRound();
  }
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      ours.push(await oursRound());
      davey.push(daveyRound());
    } else {
      davey.push(daveyRound());
      ours.push(await oursRound());
    }
  }
  const mid = (side: Round[], key: keyof Round): number => median(side.map((r) => r[key]));
  report(result(`mls-join-${n}`, 'ms', mid(ours, 'join'), '@snazzah/davey', mid(davey, 'join')));
  report(result(`mls-commit-${n}`, 'ms', mid(ours, 'commit'), '@snazzah/davey', mid(davey, 'commit')));
}

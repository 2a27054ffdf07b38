import { p256 } from '@noble/curves/nist.js';
import { DAVESession } from '@snazzah/davey';

import { SENDER_KEY_LABEL } from '../../packages/protocol/src/dave/senderKeys.js';
import { loadTsMls } from '../../packages/protocol/src/dave/tsMls.js';

// A real DAVE group with no platform (dave-e2ee.md §4): a ts-mls member ("ours", whose MLS exporter
// gives us the sender keys) creates the group with the voice gateway's external sender, commits Adds of
// two davey sessions' key packages, and both join from the bare Welcome. Both then hold the same
// epoch; davey derives its frame keys from it internally, and we from the exporter below.

/** The group, its members' user ids, and each member's 16-byte DAVE sender key for this epoch. */
export interface DaveTestGroup {
  /** The davey member, ready to encrypt and decrypt. */
  readonly davey: DAVESession;
  /** A second davey member (user id `peerUserId`), so davey can also be measured against itself. */
  readonly daveyPeer: DAVESession;
  /** The second davey member's user id. */
  readonly peerUserId: bigint;
  /** The ts-mls member's user id (the sender key `ourKey` belongs to). */
  readonly ourUserId: bigint;
  /** The davey member's user id. */
  readonly daveyUserId: bigint;
  /** MLS-Exporter("Discord Secure Frames v0", LE64(ourUserId), 16). */
  readonly ourKey: Buffer;
  /** MLS-Exporter("Discord Secure Frames v0", LE64(daveyUserId), 16). */
  readonly daveyKey: Buffer;
  /** The epoch authenticator of both members, equal when the group is really shared. */
  readonly epochAuthenticators: { readonly ours: Buffer; readonly davey: Buffer };
}

function be64(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(value);
  return bytes;
}

function le64(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}

/** Builds the group; a few hundred ms (P-256 signatures in JS). */
export async function createDaveTestGroup(): Promise<DaveTestGroup> {
  const mls = await loadTsMls();
  const cipherSuite = await mls.getCiphersuiteImpl('MLS_128_DHKEMP256_AES128GCM_SHA256_P256');
  const context = { cipherSuite, authService: mls.unsafeTestingAuthenticationService };
  const channelId = 927310423890473011n;
  const ourUserId = 158049329150427136n;
  const daveyUserId = 1234567890123456789n;
  const peerUserId = 987654321098765432n;

  // The voice gateway's external sender: an uncompressed P-256 key and a basic credential (op 25).
  const gatewayKey = p256.getPublicKey(p256.utils.randomSecretKey(), false);
  const gatewayCredential = { credentialType: mls.defaultCredentialTypes.basic, identity: Uint8Array.of(0) };
  const externalSender = Buffer.concat([
    Buffer.from([0x40, gatewayKey.length]),
    gatewayKey,
    Buffer.from([0, 1, 1, 0]),
  ]);

  const joiners = [daveyUserId, peerUserId].map((userId) => {
    const session = new DAVESession(1, String(userId), String(channelId));
    session.setExternalSender(externalSender);
    const keyPackage = mls.decode(mls.keyPackageDecoder, session.getSerializedKeyPackage());
    if (keyPackage === undefined) throw new Error('ts-mls could not decode davey’s key package');
    return { session, keyPackage };
  });

  const signKey = p256.utils.randomSecretKey();
  const ours = await mls.generateKeyPackageWithKey({
    credential: { credentialType: mls.defaultCredentialTypes.basic, identity: be64(ourUserId) },
    // DAVE's leaf: MLS 1.0, suite 2, basic credentials, no GREASE; lifetime 0..2^64-1 (dave-e2ee.md §1.6).
    capabilities: { versions: [1], ciphersuites: [2], extensions: [], proposals: [], credentials: [1] },
    lifetime: { notBefore: 0n, notAfter: 2n ** 64n - 1n },
    extensions: [],
    signatureKeyPair: { signKey, publicKey: p256.getPublicKey(signKey, false) },
    cipherSuite,
  });
  const created = await mls.createGroup({
    context,
    groupId: be64(channelId),
    keyPackage: ours.publicPackage,
    privateKeyPackage: ours.privatePackage,
    extensions: [
      {
        extensionType: mls.defaultExtensionTypes.external_senders,
        extensionData: { signaturePublicKey: gatewayKey, credential: gatewayCredential },
      },
    ],
  });
  const { newState, welcome } = await mls.createCommit({
    context,
    state: created,
    wireAsPublicMessage: true,
    ratchetTreeExtension: true,
    extraProposals: joiners.map(({ keyPackage }) => ({
      proposalType: mls.defaultProposalTypes.add,
      add: { keyPackage },
    })),
  });
  if (welcome === undefined) throw new Error('ts-mls made no Welcome for the Adds');
  // DAVE sends the Welcome bare: without the 4-byte MLSMessage header (version, wire format).
  const bareWelcome = Buffer.from(mls.encode(mls.mlsMessageEncoder, welcome).subarray(4));
  for (const { session } of joiners) session.processWelcome(bareWelcome);
  const [davey, daveyPeer] = joiners.map(({ session }) => session) as [DAVESession, DAVESession];

  const exporterSecret = newState.keySchedule.exporterSecret;
  const senderKey = async (userId: bigint) =>
    Buffer.from(await mls.mlsExporter(exporterSecret, SENDER_KEY_LABEL, le64(userId), 16, cipherSuite));
  return {
    davey,
    daveyPeer,
    peerUserId,
    ourUserId,
    daveyUserId,
    ourKey: await senderKey(ourUserId),
    daveyKey: await senderKey(daveyUserId),
    epochAuthenticators: {
      ours: Buffer.from(newState.keySchedule.epochAuthenticator),
      davey: davey.getEpochAuthenticator() ?? Buffer.alloc(0),
    },
  };
}

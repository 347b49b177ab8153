/**
 * Transfer fees against the official libraries: the extension decoded by @solana/spl-token's own unpackMint /
 * getTransferFeeConfig from mint bytes it encoded, the forward fee against its calculateEpochFee, and the inverse
 * fee against the Raydium SDK's getTransferAmountFeeV2(addFee = true), over seeded random schedules and amounts.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  ExtensionType,
  MintLayout,
  TOKEN_2022_PROGRAM_ID,
  TransferFeeConfigLayout,
  calculateEpochFee,
  getMintLen,
  getTransferFeeConfig,
  unpackMint,
} from '@solana/spl-token';
import { SeededRandom } from '../testing/seeded-random.js';
import { epochTransferFee, inverseTransferFee, mintTransferFeeConfig, transferFee, transferFeeChangesAfter, type TransferFee } from './transfer-fee.js';

const require = createRequire(import.meta.url);
const BN = require('bn.js') as new (v: string) => { toString(): string };
const { getTransferAmountFeeV2 } = require('@raydium-io/raydium-sdk-v2/lib/common/transfer.js') as {
  getTransferAmountFeeV2(amount: unknown, config: unknown, epochInfo: { epoch: bigint; slotsInEpoch: number; absoluteSlot: number }, addFee: boolean): { amount: { toString(): string }; fee?: { toString(): string } };
};

function schedule(rng: SeededRandom): TransferFee {
  const bps = rng.pick([0, 1, 25, 100, 500, 9_999, 10_000, rng.int(10_001)]);
  const maximumFee = rng.pick([0n, 1n, rng.magnitude(1, 40), (1n << 64n) - 1n]);
  return { epoch: BigInt(rng.int(1000)), maximumFee, basisPoints: bps };
}

/** Mint bytes with a TransferFeeConfig, encoded with spl-token's own layouts. */
function mintWith(older: TransferFee, newer: TransferFee): Buffer {
  const len = getMintLen([ExtensionType.TransferFeeConfig]);
  const data = Buffer.alloc(len);
  MintLayout.encode({ mintAuthorityOption: 0, mintAuthority: PublicKey.default, supply: 10n ** 12n, decimals: 6, isInitialized: true, freezeAuthorityOption: 0, freezeAuthority: PublicKey.default }, data, 0);
  data[165] = 1; // AccountType::Mint
  data.writeUInt16LE(ExtensionType.TransferFeeConfig, 166);
  data.writeUInt16LE(TransferFeeConfigLayout.span, 168);
  const asLayout = (f: TransferFee) => ({ epoch: f.epoch, maximumFee: f.maximumFee, transferFeeBasisPoints: f.basisPoints });
  TransferFeeConfigLayout.encode({
    transferFeeConfigAuthority: Keypair.generate().publicKey,
    withdrawWithheldAuthority: Keypair.generate().publicKey,
    withheldAmount: 7n,
    olderTransferFee: asLayout(older),
    newerTransferFee: asLayout(newer),
  }, data, 170);
  return data;
}

test('the extension is read as spl-token reads it, and absent where there is none', () => {
  const rng = new SeededRandom(3);
  for (let i = 0; i < 200; i++) {
    const older = schedule(rng);
    const newer = { ...schedule(rng), epoch: older.epoch + BigInt(rng.int(5)) };
    const data = mintWith(older, newer);
    const theirs = getTransferFeeConfig(unpackMint(PublicKey.default, { data, owner: TOKEN_2022_PROGRAM_ID, lamports: 1, executable: false }, TOKEN_2022_PROGRAM_ID))!;
    const ours = mintTransferFeeConfig(data)!;
    assert.deepEqual(ours, {
      older: { epoch: theirs.olderTransferFee.epoch, maximumFee: theirs.olderTransferFee.maximumFee, basisPoints: theirs.olderTransferFee.transferFeeBasisPoints },
      newer: { epoch: theirs.newerTransferFee.epoch, maximumFee: theirs.newerTransferFee.maximumFee, basisPoints: theirs.newerTransferFee.transferFeeBasisPoints },
    });
    for (const epoch of [0n, older.epoch, newer.epoch, newer.epoch + 1n]) {
      assert.equal(epochTransferFee(ours, epoch), epoch >= newer.epoch ? ours.newer : ours.older);
    }
    assert.equal(transferFeeChangesAfter(ours, newer.epoch - 1n), newer.epoch > 0n);
    assert.equal(transferFeeChangesAfter(ours, newer.epoch), false);
  }
  assert.equal(mintTransferFeeConfig(new Uint8Array(82)), null, 'an SPL Token mint');
  const plain = Buffer.alloc(getMintLen([ExtensionType.MintCloseAuthority]));
  plain[165] = 1;
  plain.writeUInt16LE(ExtensionType.MintCloseAuthority, 166);
  plain.writeUInt16LE(32, 168);
  assert.equal(mintTransferFeeConfig(plain), null, 'a Token-2022 mint with another extension');
  const account = Buffer.alloc(170);
  account[165] = 2;
  assert.equal(mintTransferFeeConfig(account), null, 'a token account');
});

test('forward fee equals spl-token calculateEpochFee; inverse fee equals the Raydium SDK (10,000 cases each)', () => {
  const rng = new SeededRandom(4);
  let capped = 0;
  for (let i = 0; i < 10_000; i++) {
    const s = schedule(rng);
    const config = { epoch: 0n, maximumFee: s.maximumFee, transferFeeBasisPoints: s.basisPoints };
    const cfg = { olderTransferFee: config, newerTransferFee: config, transferFeeConfigAuthority: PublicKey.default, withdrawWithheldAuthority: PublicKey.default, withheldAmount: 0n };
    const amount = rng.pick([0n, 1n, rng.magnitude(1, 63), rng.magnitude(1, 20)]);
    assert.equal(transferFee(s, amount), calculateEpochFee(cfg, 0n, amount), `fee ${amount} ${JSON.stringify(config, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
    const sdk = getTransferAmountFeeV2(new BN(amount.toString()), {
      olderTransferFee: { epoch: '0', maximumFee: s.maximumFee.toString(), transferFeeBasisPoints: s.basisPoints },
      newerTransferFee: { epoch: '0', maximumFee: s.maximumFee.toString(), transferFeeBasisPoints: s.basisPoints },
    }, { epoch: 1n, slotsInEpoch: 432_000, absoluteSlot: 432_000 }, true);
    const inv = inverseTransferFee(s, amount);
    assert.equal(inv, BigInt(sdk.fee!.toString()), `inverse ${amount}`);
    if (inv === s.maximumFee && inv > 0n) capped++;
    // The recipient of post + inverse nets at least post (Token-2022's guarantee), except at 100 %.
    if (s.basisPoints < 10_000 && amount + inv < 1n << 64n) assert.ok(amount + inv - transferFee(s, amount + inv) >= amount);
  }
  assert.ok(capped > 100, `the maximum-fee branch is exercised (${capped})`);
  assert.equal(transferFee(null, 123n), 0n);
  assert.equal(inverseTransferFee(null, 123n), 0n);
});

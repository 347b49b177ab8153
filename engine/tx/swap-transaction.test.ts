import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ComputeBudgetProgram, Keypair, VersionedTransaction } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import type { BuiltInstruction } from '../adapters/types.js';
import { USDC_MINT, WSOL_MINT } from '../catalog/tokens.js';
import { ASSOCIATED_TOKEN_PROGRAM, associatedTokenAddress, SYSTEM_PROGRAM } from './spl-instructions.js';
import { buildSwapTransaction, runtimeDefaultUnits, swapInstructions, wireSize, type BuiltLeg, type SwapTransactionInput } from './swap-transaction.js';

const user = Keypair.generate().publicKey.toBase58();
const dexProgram = Keypair.generate().publicKey.toBase58();
const token22Mint = Keypair.generate().publicKey.toBase58();
const tokenPrograms = new Map([
  [WSOL_MINT, TOKEN_PROGRAM_ID],
  [USDC_MINT, TOKEN_PROGRAM_ID],
  [token22Mint, TOKEN_2022_PROGRAM_ID],
]);
const ata = (mint: string): string => associatedTokenAddress(user, mint, tokenPrograms.get(mint)!);

/** A leg naming the user's token accounts of its mints (or not: `native` leaves a SOL side out, as a pump.fun curve). */
function leg(inputMint: string, outputMint: string, opts: { nativeIn?: boolean; nativeOut?: boolean; extraKeys?: number } = {}): BuiltLeg {
  const keys = [{ pubkey: user, isSigner: true, isWritable: true }];
  if (!opts.nativeIn) keys.push({ pubkey: ata(inputMint), isSigner: false, isWritable: true });
  if (!opts.nativeOut) keys.push({ pubkey: ata(outputMint), isSigner: false, isWritable: true });
  for (let i = 0; i < (opts.extraKeys ?? 0); i++) keys.push({ pubkey: Keypair.generate().publicKey.toBase58(), isSigner: false, isWritable: true });
  const instruction: BuiltInstruction = { programId: dexProgram, keys, data: Uint8Array.of(1, 2, 3) };
  return { instruction, inputMint, outputMint, maxIn: 777n };
}

const input = (legs: BuiltLeg[], more: Partial<SwapTransactionInput> = {}): SwapTransactionInput => ({
  user,
  legs,
  tokenPrograms,
  wrapAndUnwrapSol: true,
  wrapLamports: 1_000_000n,
  computeUnitLimit: 300_000,
  recentBlockhash: Keypair.generate().publicKey.toBase58(),
  ...more,
});

/** A readable summary of each instruction: program and, for token programs, the tag. */
function shape(ixs: readonly BuiltInstruction[]): string[] {
  return ixs.map((ix) => {
    if (ix.programId === ComputeBudgetProgram.programId.toBase58()) return ix.data[0] === 2 ? 'cu-limit' : 'cu-price';
    if (ix.programId === ASSOCIATED_TOKEN_PROGRAM) return `create-ata:${ix.keys[3]!.pubkey === WSOL_MINT ? 'wsol' : ix.keys[3]!.pubkey === USDC_MINT ? 'usdc' : 't22'}`;
    if (ix.programId === SYSTEM_PROGRAM) return 'transfer';
    if (ix.programId === TOKEN_PROGRAM_ID) return ix.data[0] === 17 ? 'sync-native' : ix.data[0] === 9 ? 'close' : `token-${ix.data[0]}`;
    if (ix.programId === dexProgram) return 'leg';
    return ix.programId;
  });
}

test('SOL in: budget, ATAs (wSOL, output), wrap, the leg, and the wSOL account closed after', () => {
  const { instructions, wraps, unwraps } = swapInstructions(input([leg(WSOL_MINT, USDC_MINT)]));
  assert.deepEqual(shape(instructions), ['cu-limit', 'create-ata:wsol', 'create-ata:usdc', 'transfer', 'sync-native', 'leg', 'close']);
  assert.ok(wraps && unwraps);
  const transfer = instructions[3]!;
  assert.equal(transfer.keys[1]!.pubkey, ata(WSOL_MINT));
  assert.equal(Buffer.from(transfer.data).readBigUInt64LE(4), 1_000_000n, 'wraps wrapLamports');
  const close = instructions.at(-1)!;
  assert.deepEqual(close.keys.map((k) => k.pubkey), [ata(WSOL_MINT), user, user]);
});

test('SOL out: no wrap; the output ATA created; closed after the leg (unwrap); a price instruction when given', () => {
  const { instructions, wraps, unwraps } = swapInstructions(input([leg(USDC_MINT, WSOL_MINT)], { computeUnitPriceMicroLamports: 5000n }));
  assert.deepEqual(shape(instructions), ['cu-limit', 'cu-price', 'create-ata:wsol', 'leg', 'close']);
  assert.deepEqual([wraps, unwraps], [false, true]);
});

test('wrapAndUnwrapSol false: no wrap, no close, no input ATA', () => {
  assert.deepEqual(shape(swapInstructions(input([leg(WSOL_MINT, USDC_MINT)], { wrapAndUnwrapSol: false })).instructions), ['cu-limit', 'create-ata:usdc', 'leg']);
  assert.deepEqual(shape(swapInstructions(input([leg(USDC_MINT, WSOL_MINT)], { wrapAndUnwrapSol: false })).instructions), ['cu-limit', 'create-ata:wsol', 'leg']);
});

test('a leg taking native SOL (it does not name the wSOL account): nothing wrapped, nothing closed', () => {
  const r = swapInstructions(input([leg(WSOL_MINT, token22Mint, { nativeIn: true })]));
  assert.deepEqual(shape(r.instructions), ['cu-limit', 'create-ata:t22', 'leg']);
  assert.deepEqual([r.wraps, r.unwraps], [false, false]);
  const create = r.instructions[1]!;
  assert.equal(create.keys[5]!.pubkey, TOKEN_2022_PROGRAM_ID, 'the mint\'s own token program');
  assert.equal(create.keys[1]!.pubkey, associatedTokenAddress(user, token22Mint, TOKEN_2022_PROGRAM_ID));
});

test('two legs: the intermediate and output ATAs created once each, the legs in route order', () => {
  const r = swapInstructions(input([leg(WSOL_MINT, USDC_MINT), leg(USDC_MINT, token22Mint)]));
  assert.deepEqual(shape(r.instructions), ['cu-limit', 'create-ata:wsol', 'create-ata:usdc', 'create-ata:t22', 'transfer', 'sync-native', 'leg', 'leg', 'close']);
});

test('SOL paid as lamports mid-route and taken wrapped: the next leg\'s input wrapped between the two legs', () => {
  const r = swapInstructions(input([leg(token22Mint, WSOL_MINT, { nativeOut: true }), leg(WSOL_MINT, USDC_MINT)]));
  assert.deepEqual(shape(r.instructions), ['cu-limit', 'create-ata:wsol', 'create-ata:usdc', 'leg', 'transfer', 'sync-native', 'leg']);
  assert.equal(Buffer.from(r.instructions[4]!.data).readBigUInt64LE(4), 777n, 'the next leg\'s maxIn');
  assert.deepEqual([r.wraps, r.unwraps], [false, false]);
});

test('SOL paid wrapped mid-route and taken as lamports: the wrapped-SOL account closed between the legs, once', () => {
  const r = swapInstructions(input([leg(WSOL_MINT, USDC_MINT), leg(USDC_MINT, WSOL_MINT), leg(WSOL_MINT, token22Mint, { nativeIn: true })]));
  assert.deepEqual(shape(r.instructions), ['cu-limit', 'create-ata:wsol', 'create-ata:usdc', 'create-ata:t22', 'transfer', 'sync-native', 'leg', 'leg', 'close', 'leg']);
  assert.equal(shape(r.instructions).filter((x) => x === 'close').length, 1);
});

test('no unit limit (null): no limit instruction; the runtime default counts the other instructions', () => {
  const built = buildSwapTransaction(input([leg(WSOL_MINT, USDC_MINT)], { computeUnitLimit: null }));
  assert.deepEqual(shape(swapInstructions(input([leg(WSOL_MINT, USDC_MINT)], { computeUnitLimit: null })).instructions), ['create-ata:wsol', 'create-ata:usdc', 'transfer', 'sync-native', 'leg', 'close']);
  assert.equal(built.workInstructions, 6);
  assert.equal(runtimeDefaultUnits(6), 1_200_000);
  assert.equal(runtimeDefaultUnits(9), 1_400_000);
  const withLimit = buildSwapTransaction(input([leg(WSOL_MINT, USDC_MINT)]));
  assert.equal(withLimit.workInstructions, 6);
  assert.ok(withLimit.bytes > built.bytes);
});

test('the v0 transaction: the user pays and signs alone, its message bytes are what the wire carries, unsigned', () => {
  const built = buildSwapTransaction(input([leg(WSOL_MINT, USDC_MINT)]));
  assert.equal(built.tooLarge, false);
  const tx = VersionedTransaction.deserialize(built.transaction);
  assert.equal(tx.version, 0);
  assert.equal(tx.message.staticAccountKeys[0]!.toBase58(), user);
  assert.equal(tx.message.header.numRequiredSignatures, 1);
  assert.deepEqual(tx.signatures, [new Uint8Array(64)]);
  assert.deepEqual(Buffer.from(tx.message.serialize()), Buffer.from(built.messageBytes));
  assert.equal(tx.message.compiledInstructions.length, 7);
});

test('a transaction over 1,232 bytes is tooLarge (no lookup tables)', () => {
  const big = buildSwapTransaction(input([leg(WSOL_MINT, USDC_MINT, { extraKeys: 20 }), leg(USDC_MINT, token22Mint, { extraKeys: 20 })]));
  assert.equal(big.tooLarge, true);
  assert.ok(big.bytes > 1232, `${big.bytes} bytes`);
  const fits = buildSwapTransaction(input([leg(WSOL_MINT, USDC_MINT, { extraKeys: 10 })]));
  assert.equal(fits.tooLarge, false);
  assert.ok(fits.transaction.length <= 1232);
  assert.equal(fits.bytes, fits.transaction.length);
  const message = VersionedTransaction.deserialize(fits.transaction).message;
  assert.equal(wireSize(message as Parameters<typeof wireSize>[0]), fits.transaction.length, 'the size formula matches the serializer');
});

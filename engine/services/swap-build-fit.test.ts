import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import { USDC_MINT, WSOL_MINT } from '../catalog/tokens.js';
import { selectLookupTables } from '../tx/lookup-table-select.js';
import { buildSwapTransaction, type BuiltLeg, type LookupTableRef, type SwapTransaction } from '../tx/swap-transaction.js';
import type { TableCreationOutcome } from './lookup-table-manager.js';
import { fitSwapTransaction, type FitInput, type SwapBuildTables } from './swap-build-fit.js';

const key = (): string => Keypair.generate().publicKey.toBase58();
const user = key();
const program = key();

/** A one-leg swap naming `n` route accounts (and `dataBytes` of instruction data). */
function route(n: number, dataBytes = 8): { accounts: string[]; assembleWith: (tables: () => readonly LookupTableRef[]) => (units: number | null) => SwapTransaction } {
  const accounts = Array.from({ length: n }, key);
  const leg: BuiltLeg = {
    inputMint: USDC_MINT,
    outputMint: WSOL_MINT,
    maxIn: 1n,
    instruction: { programId: program, keys: [{ pubkey: user, isSigner: true, isWritable: true }, ...accounts.map((pubkey) => ({ pubkey, isSigner: false, isWritable: true }))], data: new Uint8Array(dataBytes) },
  };
  const recentBlockhash = key();
  return {
    accounts,
    assembleWith: (tables) => (units) =>
      buildSwapTransaction({
        user,
        legs: [leg],
        tokenPrograms: new Map([[USDC_MINT, TOKEN_PROGRAM_ID], [WSOL_MINT, TOKEN_PROGRAM_ID]]),
        wrapAndUnwrapSol: false,
        wrapLamports: 0n,
        computeUnitLimit: units,
        recentBlockhash,
        lookupTables: tables(),
      }),
  };
}

/** A table holder over a list (the manager's select, with creation answered by `made`). */
function holder(held: LookupTableRef[], made: (addresses: readonly string[]) => TableCreationOutcome): SwapBuildTables & { loads: number; creations: string[][] } {
  const h = {
    loads: 0,
    creations: [] as string[][],
    load: async () => {
      h.loads++;
    },
    select: (candidates: readonly string[]) => selectLookupTables(candidates, held),
    create: async (addresses: readonly string[]) => {
      h.creations.push([...addresses]);
      const r = made(addresses);
      if (r.ok) held.push(r.table);
      return r;
    },
  };
  return h;
}

function input(r: ReturnType<typeof route>, tables: SwapBuildTables | null): FitInput & { used: () => readonly LookupTableRef[] } {
  let used: LookupTableRef[] = [];
  return {
    assemble: r.assembleWith(() => used),
    hops: 1,
    units: 300_000,
    priced: false,
    useTables: (t) => (used = t),
    candidates: () => r.accounts,
    tables,
    used: () => used,
  };
}

test('a transaction that fits is built without tables (the manager is not asked)', async () => {
  const h = holder([], () => assert.fail('no creation'));
  const f = await fitSwapTransaction(input(route(20), h));
  assert.ok(f.ok);
  assert.equal(f.units, 300_000);
  assert.deepEqual(f.tx.lookupTablesUsed, []);
  assert.equal(h.loads, 0);
});

test('just over the packet: rebuilt without the unit limit before any table', async () => {
  // 31 accounts: over 1,232 bytes with the limit instruction, under without it.
  const r = route(31);
  const withLimit = r.assembleWith(() => [])(300_000);
  const without = r.assembleWith(() => [])(null);
  assert.ok(withLimit.tooLarge && !without.tooLarge, `${withLimit.bytes} / ${without.bytes}`);
  const f = await fitSwapTransaction(input(r, holder([], () => assert.fail('no creation'))));
  assert.ok(f.ok);
  assert.equal(f.units, null);
  assert.deepEqual(f.tx.lookupTablesUsed, []);
});

test('over the packet: a held table covering the route is used, none is made', async () => {
  const r = route(45);
  const table = { address: key(), addresses: [...r.accounts] };
  const h = holder([table], () => assert.fail('no creation'));
  const i = input(r, h);
  const f = await fitSwapTransaction(i);
  assert.ok(f.ok);
  assert.equal(f.units, 300_000, 'the limit stays when tables make it fit');
  assert.deepEqual(f.tx.lookupTablesUsed, [table.address]);
  assert.equal(h.loads, 1, 'the tables on chain are searched first');
});

test('uncovered accounts: one table made for exactly those, then used', async () => {
  const r = route(45);
  const part = { address: key(), addresses: r.accounts.slice(0, 5) };
  const made = { address: key(), addresses: r.accounts.slice(5) };
  const h = holder([part], () => ({ ok: true, table: made }));
  const f = await fitSwapTransaction(input(r, h));
  assert.ok(f.ok);
  assert.deepEqual(h.creations, [r.accounts.slice(5)]);
  assert.deepEqual(new Set(f.tx.lookupTablesUsed), new Set([made.address, part.address]));
  assert.ok(!f.tx.tooLarge);
});

test('tables needed, the wallet cannot pay: TX_TOO_LARGE saying tables are unavailable; the node failing: 503', async () => {
  const r = route(45);
  const unfunded = await fitSwapTransaction(input(r, holder([], () => ({ ok: false, reason: 'unfunded', message: 'the table wallet W holds 0 lamports; a table of 45 addresses needs 11300000' }))));
  assert.ok(!unfunded.ok);
  assert.equal(unfunded.code, 'TX_TOO_LARGE');
  assert.match(unfunded.details, /^\d+ bytes for 1 hop\(s\); address lookup tables are unavailable: the table wallet W holds 0 lamports/);
  const failed = await fitSwapTransaction(input(r, holder([], () => ({ ok: false, reason: 'failed', message: 'not confirmed in 20000 ms' }))));
  assert.ok(!failed.ok);
  assert.deepEqual([failed.code, failed.details], ['SERVICE_UNAVAILABLE', 'not confirmed in 20000 ms']);
  const none = await fitSwapTransaction(input(r, null));
  assert.ok(!none.ok);
  assert.match(none.details, /address lookup tables are unavailable \(no table wallet\)$/);
});

test('nothing fits even with every account in a table: TX_TOO_LARGE with both sizes', async () => {
  // 1,100 bytes of instruction data: over the packet whatever the accounts.
  const r = route(45, 1100);
  const h = holder([], (addresses) => ({ ok: true, table: { address: key(), addresses: [...addresses] } }));
  const f = await fitSwapTransaction(input(r, h));
  assert.ok(!f.ok);
  assert.equal(f.code, 'TX_TOO_LARGE');
  assert.match(f.details, /^\d+ bytes for 1 hop\(s\); \d+ bytes with 1 address lookup table\(s\) covering 45 of its 45 route accounts$/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import bs58 from 'bs58';
import { isEngineError } from '../errors.js';
import { MINT_HEADER, MINT_TABLE_VERSION } from './layout.js';
import { MintTable } from './mint-table.js';

const WSOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function mintBytes(i: number): Uint8Array {
  return new Uint8Array(32).map((_, j) => (j === 0 ? i & 0xff : j === 1 ? i >> 8 : (j * 7 + 1) & 0xff));
}

/** A byte copy in separate memory (structuredClone of a SharedArrayBuffer would share the memory). */
function copyOf(sab: SharedArrayBuffer): SharedArrayBuffer {
  const c = new SharedArrayBuffer(sab.byteLength);
  new Uint8Array(c).set(new Uint8Array(sab));
  return c;
}

function throwsCode(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => isEngineError(e, code), `expected EngineError ${code}`);
}

test('add returns stable ids; base58 and bytes name the same mint', () => {
  const t = MintTable.create(4, 16);
  assert.equal(t.add(WSOL, 9), 0);
  assert.equal(t.add(USDC, 6, 1), 1);
  assert.equal(t.add(bs58.decode(WSOL), 9), 0, 'bytes of an existing mint give its id');
  assert.equal(t.add(WSOL, 3), 0, 'a repeated add changes nothing');
  assert.equal(t.count(), 2);
  assert.equal(t.idOf(USDC), 1);
  assert.equal(t.idOf('11111111111111111111111111111111'), undefined);
  assert.equal(t.mintOf(0), WSOL);
  assert.equal(t.decimals(0), 9);
  assert.equal(t.decimals(1), 6);
  assert.equal(t.flags(1), 1);
  throwsCode(() => t.mintOf(2), 'SLAB_NO_SUCH_MINT');
  throwsCode(() => t.decimals(2), 'SLAB_NO_SUCH_MINT');
});

test('another thread sees new mints lazily, across growth of the buffer', () => {
  const w = MintTable.create(1, 1000);
  const r = MintTable.attach(structuredClone(w.sab));
  assert.equal(r.idOf(WSOL), undefined);
  w.add(WSOL, 9);
  assert.equal(r.idOf(WSOL), 0, 'the reader refreshes when the published count grew');
  for (let i = 0; i < 500; i++) w.add(mintBytes(i), i % 19);
  assert.equal(r.count(), 501);
  for (let i = 0; i < 500; i++) {
    const name = bs58.encode(mintBytes(i));
    assert.equal(r.idOf(name), i + 1);
    assert.equal(r.mintOf(i + 1), name);
    assert.equal(r.decimals(i + 1), i % 19);
  }
  assert.ok(w.sab.byteLength > 64 + 40 * 500);
});

test('attach refuses a wrong magic or version; bad input is rejected; a full table throws', () => {
  const t = MintTable.create(1, 2);
  const badMagic = copyOf(t.sab);
  new Uint32Array(badMagic)[MINT_HEADER.magic >> 2] = 1;
  throwsCode(() => MintTable.attach(badMagic), 'SLAB_MAGIC_MISMATCH');
  const badVersion = copyOf(t.sab);
  new Uint32Array(badVersion)[MINT_HEADER.layoutVersion >> 2] = MINT_TABLE_VERSION + 1;
  throwsCode(() => MintTable.attach(badVersion), 'SLAB_VERSION_MISMATCH');
  throwsCode(() => t.add('not-base58-0OIl', 6), 'SLAB_BAD_RECORD');
  throwsCode(() => t.add(new Uint8Array(31), 6), 'SLAB_BAD_RECORD');
  throwsCode(() => t.add(WSOL, 256), 'SLAB_BAD_RECORD');
  t.add(WSOL, 9);
  t.add(USDC, 6);
  throwsCode(() => t.add(mintBytes(1), 6), 'SLAB_FULL');
  assert.equal(t.add(USDC, 6), 1, 'existing mints still resolve when full');
});

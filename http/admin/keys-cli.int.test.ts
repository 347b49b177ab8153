/**
 * Key lifecycle through the command-line tool, used over HTTP: with the service running the tool goes through
 * the admin API; stopped, it opens the embedded store itself. A created key works, a revoked key gets 401
 * within one second, a tier change takes effect without a restart, a referral credits the referrer.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { projectRoot } from '../project-root.js';
import { startServiceUnderTest, type ServiceUnderTest } from '../testing/service-under-test.js';

const run = promisify(execFile);
const CLI = join(projectRoot(import.meta.url), 'dist/http/admin/keys-cli.js');

let net: Localnet;
let sut: ServiceUnderTest;
before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100 });
  sut = await startServiceUnderTest({ KEY_POLL_MS: '500' }, net);
});
after(async () => {
  await sut?.stop();
  await net?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CLI JSON is probed field by field
type Json = any;

async function keys(dataDir: string, ...args: string[]): Promise<Json> {
  const { stdout } = await run(process.execPath, [CLI, ...args, '--json'], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 1, `--json prints one line: ${stdout}`);
  return JSON.parse(lines[0]!);
}

async function status(path: string, key: string): Promise<number> {
  return (await fetch(sut.base + path, { headers: { 'x-api-key': key } })).status;
}

const FORENSICS = '/v1/forensics/token/So11111111111111111111111111111111111111112/asset';

test('create, use, change tier, revoke: through the admin API while the service runs', async () => {
  const created = await keys(sut.dataDir, 'create', '--tier', 'free');
  assert.deepEqual(Object.keys(created).slice(0, 4), ['id', 'key', 'tier', 'referralCode']);
  assert.equal(created.tier, 'free');
  assert.match(created.key, /^svc_[1-9A-HJ-NP-Za-km-z]{30,}$/);
  assert.equal(await status('/v1/points/me', created.key), 200, 'a created key works at once');
  assert.equal(await status(FORENSICS, created.key), 403, 'free is below forensics');

  const listed = await keys(sut.dataDir, 'list');
  const row = listed.keys.find((k: Json) => k.id === created.id);
  assert.ok(row, 'list shows the key');
  assert.equal(row.key, undefined, 'list never shows a key');
  assert.equal(row.keyHash, undefined, 'nor its hash');

  const t0 = Date.now();
  await keys(sut.dataDir, 'set-tier', String(created.id), 'starter');
  while ((await status(FORENSICS, created.key)) !== 501) {
    assert.ok(Date.now() - t0 < 1000, 'tier change effective within one second');
    await new Promise((r) => setTimeout(r, 20));
  }

  const t1 = Date.now();
  const revoked = await keys(sut.dataDir, 'revoke', String(created.id));
  assert.ok(revoked.revokedAt);
  let code = 0;
  while ((code = await status('/v1/points/me', created.key)) !== 401) {
    assert.ok(Date.now() - t1 < 1000, 'revoked key refused within one second');
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(code, 401);
});

test('a change made on the store by another process reaches the running service within one second', async () => {
  // What a second instance (or an operator on PostgreSQL) does: write the store, not this process's memory.
  const k = await sut.svc.store.keys.findByHash('0'.repeat(64));
  assert.equal(k, null);
  const created = await sut.svc.keys.create({ tier: 'pro' });
  assert.equal(await status('/v1/points/me', created.key), 200);
  await sut.svc.store.keys.revoke(created.id); // bypasses the in-process replica
  const t0 = Date.now();
  while ((await status('/v1/points/me', created.key)) !== 401) {
    assert.ok(Date.now() - t0 < 1000, 'picked up by polling within one second');
    await new Promise((r) => setTimeout(r, 20));
  }
});

test('referral: a key created with --referrer credits the referrer', async () => {
  const a = await keys(sut.dataDir, 'create', '--tier', 'pro');
  const b = await keys(sut.dataDir, 'create', '--tier', 'free', '--referrer', a.referralCode);
  assert.equal(b.referrerId, a.id);
  const p = (await (await fetch(`${sut.base}/v1/points/me`, { headers: { 'x-api-key': a.key } })).json()) as Json;
  assert.equal(p.referral.referralCount, 1);
  assert.ok(p.breakdown.referral > 0);
  assert.equal(p.totalPoints, p.breakdown.apiUsage + p.breakdown.signup + p.breakdown.referral + p.breakdown.wallet);
  const bad = await run(process.execPath, [CLI, 'create', '--tier', 'free', '--referrer', 'NOPE1234', '--json'], {
    env: { ...process.env, DATA_DIR: sut.dataDir },
  }).catch((e: { code: number; stderr: string }) => e);
  assert.equal((bad as { code: number }).code, 1);
  assert.match((bad as { stderr: string }).stderr, /referral code/);
});

test('with the service stopped the tool opens the store itself; the service then honours its changes', async () => {
  const dataDir = sut.dataDir;
  await sut.svc.close();
  const created = await keys(dataDir, 'create', '--tier', 'growth', '--label', 'offline');
  assert.equal(created.tier, 'growth');
  const listed = await keys(dataDir, 'list');
  assert.ok(listed.keys.some((k: Json) => k.id === created.id && k.label === 'offline'));
  // Restart on the same data folder.
  sut = await startServiceUnderTest({ DATA_DIR: dataDir }, net);
  assert.equal(await status('/v1/points/me', created.key), 200);
});

/**
 * The production import graph, walked from the entry points over the .ts sources (tests run on dist/, the walk
 * reads the sources): it must reach no testing/ folder, no test file, nothing in fixtures/ and no official DEX
 * SDK or other devDependency. The walker itself is proven on small fake graphs, so the main test can fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './store/project-root.js';
import { moduleSpecifiers, productRules, repoGraph, walkImports, type GraphSource } from './testing/import-graph.js';

const ROOT = projectRoot();
/** How the service starts: `node dist/http/main.js` (scripts/run.sh), the keys CLI (package.json `keys`), and the
 * thread entries (started by URL from workers/quote-pool.ts and workers/ingest-host.ts). */
const ENTRIES = [
  'http/main.ts',
  'http/admin/keys-cli.ts',
  ...readdirSync(join(ROOT, 'workers'))
    .filter((f) => f.endsWith('.worker.ts'))
    .map((f) => `workers/${f}`),
];

/** A fake graph: `files` maps a file to its source text. */
function fakeGraph(files: Record<string, string>, devDependencies: string[] = []): GraphSource {
  return {
    specifiers: (f) => (f in files ? moduleSpecifiers(f, files[f] as string) : null),
    forbidden: productRules(devDependencies),
  };
}

test('the production graph reaches no test support, fixture, test file, SDK or devDependency', () => {
  const { reached, violations, missing } = walkImports(ENTRIES, repoGraph(ROOT));
  assert.deepEqual(missing, [], 'every relative import resolves to a source file');
  assert.deepEqual(
    violations.map((v) => `${v.target} (${v.reason}) via ${v.chain.join(' -> ')}`),
    [],
  );
  // The walk is the real graph, not a stub: the registry, every adapter folder and the chain clients are in it.
  assert.ok(reached.size > 150, `reached ${reached.size} files`);
  for (const f of ['engine/adapters/registry.ts', 'engine/slab/pool-slab.ts', 'engine/chain/rpc-client.ts', 'http/service.ts']) {
    assert.ok(reached.has(f), f);
  }
});

test('the worker entries are reached from http/main.ts through their new URL(..., import.meta.url)', () => {
  const { reached } = walkImports(['http/main.ts'], repoGraph(ROOT));
  for (const e of ENTRIES.filter((f) => f.startsWith('workers/'))) assert.ok(reached.has(e), e);
});

test('the walker reports each kind of forbidden target with its chain', () => {
  const g = fakeGraph(
    {
      'http/main.ts': "import { a } from '../engine/a.js';\nimport type { T } from '../engine/t.js';\n",
      'engine/a.ts': "export * from './b.js';\nconst w = new URL('../workers/w.worker.js', import.meta.url);\n",
      'engine/t.ts': "export type T = import('./x.js').X;\n",
      'engine/b.ts': "import BN from 'bn.js';\nimport { r } from '@raydium-io/raydium-sdk-v2/lib/x';\nimport { readFileSync } from 'node:fs';\nimport { join } from 'path';\n",
      'workers/w.worker.ts': "const m = await import('../engine/testing/helper.js');\nimport '../fixtures/localnet/seed.js';\n",
      'engine/testing/helper.ts': "import { h } from '../h.test.js';\n",
      'engine/h.test.ts': '',
      'fixtures/localnet/seed.ts': "const x = require('fast-check');\n",
      'engine/x.ts': '',
    },
    ['bn.js', 'fast-check', '@types/node', 'typescript'],
  );
  const { violations, missing } = walkImports(['http/main.ts'], g);
  const got = new Map(violations.map((v) => [v.target, v]));
  assert.deepEqual([...got.keys()].sort(), ['@raydium-io/raydium-sdk-v2', 'bn.js', 'engine/h.test.ts', 'engine/testing/helper.ts', 'fast-check', 'fixtures/localnet/seed.ts']);
  assert.deepEqual(got.get('bn.js')?.chain, ['http/main.ts', 'engine/a.ts', 'engine/b.ts', 'bn.js']);
  assert.equal(got.get('@raydium-io/raydium-sdk-v2')?.reason, 'official DEX SDK');
  assert.deepEqual(got.get('engine/testing/helper.ts')?.chain, ['http/main.ts', 'engine/a.ts', 'workers/w.worker.ts', 'engine/testing/helper.ts']);
  assert.equal(got.get('engine/h.test.ts')?.reason, 'test file');
  assert.equal(got.get('fixtures/localnet/seed.ts')?.reason, 'fixtures/');
  assert.deepEqual(missing, []);
});

test('a clean fake graph has no violations, and a missing file is reported', () => {
  const g = fakeGraph({ 'http/main.ts': "import { a } from '../engine/a.js';\nimport { b } from './gone.js';\n", 'engine/a.ts': "import { PublicKey } from '@solana/web3.js';\n" }, ['bn.js']);
  const { violations, missing, reached } = walkImports(['http/main.ts'], g);
  assert.deepEqual(violations, []);
  assert.deepEqual(missing, ['http/gone.ts']);
  assert.deepEqual([...reached].sort(), ['engine/a.ts', 'http/gone.ts', 'http/main.ts']);
});

test('specifiers in comments and strings are not imports', () => {
  const specs = moduleSpecifiers('x.ts', "// import x from 'bn.js'\n/** import('./testing/y.js') */\nconst s = \"import z from '@pump-fun/pump-sdk'\";\nimport { a } from './a.js';\n");
  assert.deepEqual(specs, ['./a.js']);
});

/**
 * The dependency rules of `eslint.config.js` fail on wrong imports: ESLint's Node API lints in-memory sources
 * placed (by file name) in each folder, one wrong and one right import per rule. `make lint` runs the same config.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import { projectRoot } from './store/project-root.js';

const eslint = new ESLint({ cwd: projectRoot() });

/** The `no-restricted-imports` messages for one import placed in `file`. */
async function restricted(file: string, spec: string, names = '{ x }'): Promise<string[]> {
  const [result] = await eslint.lintText(`import ${names} from '${spec}';\nexport const y = [${names.replace(/[{}]/g, '')}];\n`, { filePath: file });
  assert.ok(result, file);
  const other = result.messages.filter((m) => m.ruleId !== 'no-restricted-imports');
  assert.deepEqual(other.map((m) => m.message), [], `only the import rule speaks for ${file}`);
  return result.messages.map((m) => m.message);
}

/** [file, import, the expected message fragment or null when the import is allowed] */
const CASES: readonly (readonly [string, string, string | null])[] = [
  // Product code: no test support, no SDK, no devDependency.
  ['engine/adapters/pumpfun/adapter.ts', './testing/sdk-oracle.js', 'test support'],
  ['engine/router/price.ts', '../adapters/testing/seeded-random.js', 'test support'],
  ['engine/ingest/ingest-core.ts', '../../fixtures/localnet/main.js', 'test support'],
  ['engine/router/price.ts', '../adapters/pumpfun/adapter.test.js', 'test support'],
  ['engine/adapters/pumpfun/adapter.ts', '@pump-fun/pump-sdk', 'official DEX SDK'],
  ['engine/adapters/meteora-dbc/math.ts', '@meteora-ag/dynamic-bonding-curve-sdk/dist/index.js', 'official DEX SDK'],
  ['engine/adapters/raydium-cpmm/math.ts', 'bn.js', 'devDependency'],
  ['http/server.ts', 'fast-check', 'devDependency'],
  ['workers/quote.worker.ts', '../engine/testing/free-port.js', 'test support'],
  // Tests and test support may use all of it.
  ['engine/adapters/pumpfun/adapter.test.ts', './testing/sdk-oracle.js', null],
  ['engine/adapters/pumpfun/testing/sdk-oracle.ts', '@pump-fun/pump-sdk', null],
  // engine never imports http or workers (tests included).
  ['engine/router/price.ts', '../../http/server.js', 'never imports http'],
  ['engine/services/price-service.test.ts', '../../workers/quote-pool.js', 'never imports http'],
  // Adapters never import a network client.
  ['engine/adapters/raydium-cpmm/adapter.ts', '../../chain/rpc-client.js', 'network client'],
  ['engine/adapters/registry.ts', '../chain/yellowstone.js', 'network client'],
  ['engine/adapters/pumpswap/adapter.ts', 'node:http', 'network client'],
  ['engine/adapters/pumpswap/adapter.ts', 'undici', 'network client'],
  ['engine/adapters/pumpswap/adapter.ts', '@triton-one/yellowstone-grpc', 'network client'],
  ['engine/adapters/pumpswap/pdas.ts', '@solana/web3.js', null],
  // The slab is a leaf.
  ['engine/slab/pool-slab.ts', '../adapters/types.js', 'engine/slab imports nothing above it'],
  ['engine/slab/pool-slab.test.ts', '../adapters/types.js', 'engine/slab imports nothing above it'],
  ['engine/slab/pool-slab.ts', './record-fields.js', null],
  // The tiers are a leaf; the store is below keys and points; points never import keys.
  ['engine/tiers/tier.ts', '../errors.js', 'engine/tiers is a leaf'],
  ['engine/store/types.ts', '../keys/key-directory.js', 'engine/store is below'],
  ['engine/store/repos/keys.ts', '../../points/ledger.js', 'engine/store is below'],
  ['engine/store/types.ts', '../tiers/tier.js', null],
  ['engine/points/ledger.ts', '../keys/key-service.js', 'engine/points never imports engine/keys'],
  ['engine/keys/key-service.ts', '../points/ledger.js', null],
  // http reaches the engine through services, worker wrappers and named leaves.
  ['http/routes/prices.ts', '../../engine/slab/pool-slab.js', 'through engine/services'],
  ['http/routes/prices.ts', '../../engine/adapters/registry.js', 'through engine/services'],
  ['http/routes/prices.ts', '../../engine/services/price-service-types.js', null],
  ['http/auth.ts', '../engine/tiers/tier.js', null],
  ['http/server.ts', '../workers/quote.worker.js', 'worker pool wrappers'],
  ['http/service.ts', '../workers/quote-pool.js', null],
  ['http/service.ts', '../engine/slab/pool-slab.js', null], // the composition root
  ['http/service.ts', '@raydium-io/raydium-sdk-v2', 'official DEX SDK'],
  // workers never import the shell.
  ['workers/quote.worker.ts', '../http/server.js', 'never imports the HTTP shell'],
];

for (const [file, spec, expected] of CASES) {
  test(`${file}: import '${spec}' ${expected ? 'is refused' : 'is allowed'}`, async () => {
    const messages = await restricted(file, spec);
    if (expected === null) assert.deepEqual(messages, []);
    else assert.ok(messages.length === 1 && messages[0]?.includes(expected), messages.join(' | ') || 'no message');
  });
}

test('an adapter may not take an RPC Connection from @solana/web3.js', async () => {
  const messages = await restricted('engine/adapters/pumpswap/pdas.ts', '@solana/web3.js', '{ Connection }');
  assert.ok(messages.length === 1 && messages[0]?.includes('RPC connection'), messages.join(' | '));
});

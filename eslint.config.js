// Lint: typescript-eslint's recommended rules over the sources (not the compiled output), and the dependency rules
// of ARCHITECTURE.md as `no-restricted-imports`, one block per folder. ESLint gives a rule the options of the LAST
// block that matches a file (options are replaced, not merged), so each block below lists every pattern that
// applies to its files, and blocks go from the widest file set to the narrowest.
// `engine/lint-rules.test.ts` proves each rule fails on a wrong import; `engine/import-graph.test.ts` walks the
// whole production graph (dynamic imports and worker URLs included, which this lint cannot see).
import { readFileSync } from 'node:fs';
import tseslint from 'typescript-eslint';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Packages only tests, benches and the localnet use: every devDependency but types, compiler and linter. */
const DEV_ONLY = Object.keys(pkg.devDependencies).filter((n) => !/^(@types\/|typescript$|typescript-eslint$|eslint$)/.test(n));

/** Test support: `testing/` folders, test files, the localnet and its fixtures. */
const TEST_SUPPORT = {
  regex: '(^|/)(testing|fixtures)(/|$)|\\.test(\\.[jt]s)?$',
  message: 'Product code never imports test support (testing/ folders, *.test files, fixtures/).',
};
/** The official DEX SDKs (reference oracles of the tests) and every other devDependency. */
const DEV_PACKAGES = {
  regex: `^(@raydium-io|@pump-fun|@meteora-ag|@coral-xyz|@orca-so)/|^(${DEV_ONLY.map(escape).join('|')})(/|$)`,
  message: 'Product code never imports an official DEX SDK or a devDependency (they are test oracles and tools).',
};
/** engine/** never imports http/** or workers/** (from any depth inside engine/, `../` runs end at the root). */
const ENGINE_UP = {
  regex: '^(\\.\\./)+(http|workers)(/|$)',
  message: 'engine/** never imports http/** or workers/** (ARCHITECTURE.md, dependency rule).',
};
/** Adapters are pure: no network client, no I/O library. */
const ADAPTER_NETWORK = {
  regex: '^(\\.\\./)+chain(/|$)|^(undici|ioredis|pg|uWebSockets\\.js|@triton-one/.+|@grpc/.+|@electric-sql/.+|(node:)?(net|http|https|http2|tls|dgram|dns))(/|$)',
  message: 'Adapters never import a network client (engine/chain, undici, gRPC, node:net/http, ...): state comes in through update.',
};
const ADAPTER_NETWORK_PATHS = [
  { name: '@solana/web3.js', importNames: ['Connection'], message: 'Adapters never hold an RPC connection.' },
];
/** The slab is below the adapters, router, ingest and services: it imports none of them. */
const SLAB_LEAF = {
  regex: '^(\\.\\./)+(adapters|router|ingest|services|chain|store|catalog|keys|limits|points)(/|$)',
  message: 'engine/slab imports nothing above it (the record image is engine/slab/record-fields.ts).',
};
/**
 * http/** reaches the engine through engine/services and the worker wrappers. Allowed besides: leaf value modules
 * (tiers, errors, the price value types and their age at read), and the access-control contracts the shell's own
 * pipeline applies (auth and rate limits are the shell's job: engine/limits table and types, the key service of
 * the admin routes), and the feed-freshness assessment of /health. The composition roots are exempt (below).
 */
const HTTP_VIA_SERVICES = {
  regex:
    '^(\\.\\./)+engine/(?!(services|tiers)/|errors\\.js$|router/price-(types|age)\\.js$|limits/(table|types)\\.js$|keys/key-service\\.js$|ingest/feed-status\\.js$)',
  message: 'http/** reaches the engine through engine/services and the worker wrappers (see eslint.config.js for the allowed leaves).',
};
const HTTP_WORKER_WRAPPERS = {
  regex: '^(\\.\\./)+workers/(?!(quote-pool|ingest-host|protocol)\\.js$)',
  message: 'http/** uses the worker pool wrappers (quote-pool, ingest-host, protocol), never a thread entry.',
};
/** The tiers are a leaf: keys, points, limits, the store and the shell all depend on them. */
const TIERS_LEAF = {
  regex: '^\\.\\./',
  message: 'engine/tiers is a leaf: it imports nothing outside its folder.',
};
/** The store (persistence contract and drivers) is below the domain modules that use it. */
const STORE_BELOW = {
  regex: '^(\\.\\./)+(keys|points|limits|services|router|ingest|adapters|chain|catalog)(/|$)',
  message: 'engine/store is below keys, points, limits and services: it imports none of them (tiers are in engine/tiers).',
};
/** keys use points (signup and referral credits); points never use keys (the cycle issue 12 removed). */
const POINTS_NO_KEYS = {
  regex: '^(\\.\\./)+keys(/|$)',
  message: 'engine/points never imports engine/keys (keys import points; the tiers are in engine/tiers).',
};
const WORKERS_NO_HTTP = {
  regex: '^(\\.\\./)+http(/|$)',
  message: 'workers/** never imports the HTTP shell.',
};

/** The rule entry for a list of patterns (and optional named paths). */
const restrict = (patterns, paths = []) => ['error', { patterns, paths }];
/** Test files and test support are exempt from the product-only patterns. */
const NOT_PRODUCT = ['**/*.test.ts', '**/testing/**'];
/** Composition roots: they build the whole service (slabs, store, ingest host, limiters) and may import any of it. */
const COMPOSITION_ROOTS = ['http/service.ts', 'http/admin/keys-cli.ts'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // engine: tests included.
  { files: ['engine/**/*.ts'], rules: { 'no-restricted-imports': restrict([ENGINE_UP]) } },
  { files: ['engine/**/*.ts'], ignores: NOT_PRODUCT, rules: { 'no-restricted-imports': restrict([ENGINE_UP, TEST_SUPPORT, DEV_PACKAGES]) } },
  {
    files: ['engine/adapters/**/*.ts'],
    ignores: NOT_PRODUCT,
    rules: { 'no-restricted-imports': restrict([ENGINE_UP, TEST_SUPPORT, DEV_PACKAGES, ADAPTER_NETWORK], ADAPTER_NETWORK_PATHS) },
  },
  { files: ['engine/tiers/**/*.ts'], rules: { 'no-restricted-imports': restrict([ENGINE_UP, TIERS_LEAF]) } },
  { files: ['engine/store/**/*.ts'], ignores: NOT_PRODUCT, rules: { 'no-restricted-imports': restrict([ENGINE_UP, TEST_SUPPORT, DEV_PACKAGES, STORE_BELOW]) } },
  { files: ['engine/points/**/*.ts'], ignores: NOT_PRODUCT, rules: { 'no-restricted-imports': restrict([ENGINE_UP, TEST_SUPPORT, DEV_PACKAGES, POINTS_NO_KEYS]) } },
  { files: ['engine/slab/**/*.ts'], rules: { 'no-restricted-imports': restrict([ENGINE_UP, SLAB_LEAF]) } },
  {
    files: ['engine/slab/**/*.ts'],
    ignores: NOT_PRODUCT,
    rules: { 'no-restricted-imports': restrict([ENGINE_UP, TEST_SUPPORT, DEV_PACKAGES, SLAB_LEAF]) },
  },
  // The shell and the thread entries.
  { files: ['http/**/*.ts'], ignores: NOT_PRODUCT, rules: { 'no-restricted-imports': restrict([TEST_SUPPORT, DEV_PACKAGES, HTTP_WORKER_WRAPPERS]) } },
  {
    files: ['http/**/*.ts'],
    ignores: [...NOT_PRODUCT, ...COMPOSITION_ROOTS],
    rules: { 'no-restricted-imports': restrict([TEST_SUPPORT, DEV_PACKAGES, HTTP_WORKER_WRAPPERS, HTTP_VIA_SERVICES]) },
  },
  { files: ['workers/**/*.ts'], ignores: NOT_PRODUCT, rules: { 'no-restricted-imports': restrict([TEST_SUPPORT, DEV_PACKAGES, WORKERS_NO_HTTP]) } },
);

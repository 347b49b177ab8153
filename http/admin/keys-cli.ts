/**
 * `npm run keys -- <command>`: API key management, whether or not the service is running.
 *
 *   create --tier <free|starter|growth|pro|internal> [--label L] [--referrer CODE] [--json]
 *   list [--json]
 *   revoke <id> [--json]
 *   set-tier <id> <tier> [--json]          (also: --id N --tier T)
 *
 * While the service runs (its `<dataDir>/admin.json` names a live process, or ADMIN_URL is set) the tool goes
 * through the admin API, because the embedded store allows one process; otherwise it opens the store itself
 * (PGlite in DATA_DIR, or DATABASE_URL). `--json` prints exactly one JSON object on stdout.
 */
import { isEngineError } from '../../engine/errors.js';
import { KeyService, type CreatedKey, type KeyView } from '../../engine/keys/key-service.js';
import { openStore } from '../../engine/store/open.js';
import { loadConfig, type ServiceConfig } from '../config.js';
import { readAdminEndpoint, readAdminToken } from './admin-token.js';

interface Args {
  readonly command: string;
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

function parseArgs(argv: readonly string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      const next = argv[i + 1];
      if (inline !== undefined) flags.set(k, inline);
      else if (k !== 'json' && next !== undefined && !next.startsWith('--')) flags.set(k, argv[++i]!);
      else flags.set(k, true);
    } else positional.push(a);
  }
  return { command: positional.shift() ?? 'help', positional, flags };
}

/** The operations, over the admin API or the store. */
interface Ops {
  create(tier: string, label: string | null, referrer: string | null): Promise<CreatedKey>;
  list(): Promise<KeyView[]>;
  revoke(id: number): Promise<KeyView>;
  setTier(id: number, tier: string): Promise<KeyView>;
  close(): Promise<void>;
}

class CliError extends Error {}

function apiOps(url: string, token: string): Ops {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new CliError(`${json.error ?? res.statusText} (HTTP ${res.status})`);
    return json;
  };
  return {
    create: (tier, label, referrer) => call('POST', '/admin/keys', { tier, label, referrer }),
    list: async () => (await call<{ keys: KeyView[] }>('GET', '/admin/keys')).keys,
    revoke: (id) => call('POST', `/admin/keys/${id}/revoke`),
    setTier: (id, tier) => call('POST', `/admin/keys/${id}/tier`, { tier }),
    close: async () => undefined,
  };
}

async function storeOps(cfg: ServiceConfig): Promise<Ops> {
  const store = await openStore({
    ...(cfg.databaseUrl ? { databaseUrl: cfg.databaseUrl } : { dataDir: `${cfg.dataDir}/pglite` }),
    ...(cfg.databaseSchema ? { schema: cfg.databaseSchema } : {}),
    onError: () => undefined,
  });
  const keys = new KeyService(store);
  return {
    create: (tier, label, referrer) => keys.create({ tier, label, referrer }),
    list: () => keys.list(),
    revoke: (id) => keys.revoke(id),
    setTier: (id, tier) => keys.setTier(id, tier),
    close: () => store.close(),
  };
}

async function connect(cfg: ServiceConfig): Promise<Ops> {
  const url = process.env.ADMIN_URL || readAdminEndpoint(cfg.dataDir)?.url;
  if (url) {
    const token = cfg.adminToken ?? readAdminToken(cfg.dataDir);
    if (!token) throw new CliError(`the service's admin API is at ${url} but no token: set ADMIN_TOKEN`);
    return apiOps(url, token);
  }
  return storeOps(cfg);
}

function idOf(a: Args, i: number): number {
  const raw = (a.flags.get('id') as string | undefined) ?? a.positional[i];
  const id = Number(raw);
  if (!raw || !Number.isInteger(id) || id <= 0) throw new CliError(`${a.command} needs a key id`);
  return id;
}

function flag(a: Args, name: string): string | null {
  const v = a.flags.get(name);
  return typeof v === 'string' ? v : null;
}

function show(json: boolean, obj: object, text: string): void {
  process.stdout.write(json ? JSON.stringify(obj) + '\n' : text + '\n');
}

function line(k: KeyView): string {
  return `${String(k.id).padStart(5)}  ${k.prefix}…  ${k.tier.padEnd(8)}  ${k.referralCode}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}${k.label ? `  ${k.label}` : ''}`;
}

const USAGE = `usage: npm run keys -- <command>
  create --tier <free|starter|growth|pro|internal> [--label L] [--referrer CODE] [--json]
  list [--json]
  revoke <id> [--json]
  set-tier <id> <tier> [--json]`;

async function run(a: Args): Promise<void> {
  const json = a.flags.has('json');
  if (a.command === 'help' || a.flags.has('help')) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  if (!['create', 'list', 'revoke', 'set-tier'].includes(a.command)) throw new CliError(`unknown command ${a.command}\n${USAGE}`);
  const ops = await connect(loadConfig());
  try {
    if (a.command === 'create') {
      const k = await ops.create(flag(a, 'tier') ?? 'free', flag(a, 'label'), flag(a, 'referrer'));
      show(json, { id: k.id, key: k.key, tier: k.tier, referralCode: k.referralCode, referrerId: k.referrerId, label: k.label }, `created key ${k.id} (${k.tier}), shown once:\n${k.key}\nreferral code: ${k.referralCode}`);
    } else if (a.command === 'list') {
      const keys = await ops.list();
      show(json, { keys, count: keys.length }, keys.length ? keys.map(line).join('\n') : 'no keys');
    } else if (a.command === 'revoke') {
      const k = await ops.revoke(idOf(a, 0));
      show(json, k, `revoked key ${k.id}`);
    } else {
      const tier = flag(a, 'tier') ?? a.positional[1];
      if (!tier) throw new CliError('set-tier needs a tier');
      const k = await ops.setTier(idOf(a, 0), tier);
      show(json, k, `key ${k.id} is now ${k.tier}`);
    }
  } finally {
    await ops.close();
  }
}

run(parseArgs(process.argv.slice(2))).catch((e: unknown) => {
  const msg = e instanceof CliError || isEngineError(e) ? e.message : String((e as Error)?.stack ?? e);
  process.stderr.write(`keys: ${msg}\n`);
  process.exit(1);
});

/**
 * The admin token and the admin endpoint file. The token is `ADMIN_TOKEN` when set, else a random one kept in
 * `<dataDir>/admin-token` (mode 0600) so the command-line tool on the same machine can read it. The running
 * service writes `<dataDir>/admin.json` ({ url, pid }) so the tool finds its admin API.
 */
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the running service says its admin API is. */
export interface AdminEndpoint {
  readonly url: string;
  readonly pid: number;
}

const TOKEN_FILE = 'admin-token';
const ENDPOINT_FILE = 'admin.json';

/** The admin token: `explicit` if given, else the one stored in `dataDir` (created on first use). */
export function loadAdminToken(dataDir: string, explicit?: string): string {
  if (explicit) return explicit;
  const file = join(dataDir, TOKEN_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('hex');
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return token;
}

/** The stored token without creating one, or null. */
export function readAdminToken(dataDir: string): string | null {
  const file = join(dataDir, TOKEN_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/** Constant-time comparison of a presented bearer token against the expected one. */
export function tokenMatches(presented: string, expected: string): boolean {
  // Why hash first: timingSafeEqual needs equal lengths, and comparing digests leaks nothing about the length.
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Records the admin endpoint of this process. */
export function writeAdminEndpoint(dataDir: string, e: AdminEndpoint): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, ENDPOINT_FILE), JSON.stringify(e) + '\n');
}

/** Removes the endpoint file if it is this process's. */
export function clearAdminEndpoint(dataDir: string, pid: number): void {
  const e = readAdminEndpoint(dataDir);
  if (e && e.pid === pid) rmSync(join(dataDir, ENDPOINT_FILE), { force: true });
}

/** The recorded endpoint, or null (also when its process is gone). */
export function readAdminEndpoint(dataDir: string): AdminEndpoint | null {
  const file = join(dataDir, ENDPOINT_FILE);
  if (!existsSync(file)) return null;
  try {
    const e = JSON.parse(readFileSync(file, 'utf8')) as AdminEndpoint;
    return typeof e.url === 'string' && Number.isInteger(e.pid) && processAlive(e.pid) ? e : null;
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

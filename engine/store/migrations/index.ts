/**
 * Every migration, in order. A later change is a new file `NNN-name.ts` and one more line here (the list is static
 * so a stale compiled file can never be picked up; `migrate.test.ts` checks that every file is listed).
 */
import { migration001 } from './001-keys-points-usage.js';
import { migration002 } from './002-price-history.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** The migrations, ids 1..n without gaps. */
export const MIGRATIONS: readonly Migration[] = [migration001, migration002];

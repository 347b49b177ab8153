/**
 * Key lifecycle: create (with signup and referral credits, in one transaction), list, revoke, change tier, and
 * provision the demo key. Used by the admin API and, when the service is not running, by the command-line tool
 * directly on the store. The in-process {@link KeyDirectory}, when given, learns every change at once.
 */
import { EngineError } from '../errors.js';
import { creditReferral, creditSignup } from '../points/ledger.js';
import type { ApiKeyRecord, Store } from '../store/types.js';
import type { KeyDirectory } from './key-directory.js';
import { generateApiKey, generateReferralCode, hashApiKey, keyDisplayPrefix } from './key-material.js';
import { isKeyTier, type Tier } from '../tiers/tier.js';

/** A key as shown to operators (never the key itself, never its hash). */
export interface KeyView {
  readonly id: number;
  readonly prefix: string;
  readonly tier: Tier;
  readonly label: string | null;
  readonly referralCode: string;
  readonly referrerId: number | null;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** A freshly created key: the only time the key itself is shown. */
export interface CreatedKey extends KeyView {
  readonly key: string;
}

/** Options of {@link KeyService.create}. */
export interface CreateKeyInput {
  readonly tier: string;
  readonly label?: string | null;
  /** A referral code of an existing key. */
  readonly referrer?: string | null;
}

/** Operator view of a stored key. */
export function keyView(r: ApiKeyRecord): KeyView {
  return {
    id: r.id,
    prefix: r.prefix,
    tier: r.tier,
    label: r.label,
    referralCode: r.referralCode,
    referrerId: r.referrerId,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt ? r.revokedAt.toISOString() : null,
  };
}

function checkTier(tier: string): Tier {
  if (!isKeyTier(tier)) throw new EngineError('BAD_TIER', `tier must be one of free, starter, growth, pro, internal; got ${tier}`);
  return tier;
}

/** Largest key id: `api_keys.id` is a PostgreSQL `integer`. */
export const MAX_KEY_ID = 2_147_483_647;

/** Throws UNKNOWN_KEY for an id no key can have (not an integer in 1..{@link MAX_KEY_ID}): the store would fail
 * on an `integer` out of range (a 500 through the admin API) instead of finding nothing. */
function checkKeyId(id: number): void {
  if (!Number.isInteger(id) || id < 1 || id > MAX_KEY_ID) throw new EngineError('UNKNOWN_KEY', `no key with id ${id}`);
}

/** The key lifecycle over a store. */
export class KeyService {
  constructor(
    private readonly store: Store,
    private readonly directory: KeyDirectory | null = null,
  ) {}

  /** Creates a key; throws EngineError BAD_TIER or UNKNOWN_REFERRER. */
  async create(input: CreateKeyInput): Promise<CreatedKey> {
    const tier = checkTier(input.tier);
    const key = generateApiKey();
    const record = await this.store.transaction(async (tx) => {
      let referrerId: number | null = null;
      if (input.referrer) {
        const ref = await tx.keys.findByReferralCode(input.referrer.trim().toUpperCase());
        if (!ref || ref.revokedAt) throw new EngineError('UNKNOWN_REFERRER', `no active key has referral code ${input.referrer}`);
        referrerId = ref.id;
      }
      const rec = await tx.keys.create({
        keyHash: hashApiKey(key),
        prefix: keyDisplayPrefix(key),
        tier,
        label: input.label ?? null,
        referralCode: generateReferralCode(),
        referrerId,
      });
      await creditSignup(tx, rec);
      if (referrerId !== null) await creditReferral(tx, referrerId, rec.id);
      return rec;
    });
    this.directory?.apply(record);
    return { ...keyView(record), key };
  }

  /** Every key (revoked ones too), by id. */
  async list(): Promise<KeyView[]> {
    return (await this.store.keys.list({ includeRevoked: true })).map(keyView);
  }

  /** Revokes a key; throws EngineError UNKNOWN_KEY (also for an id no key can have). */
  async revoke(id: number): Promise<KeyView> {
    checkKeyId(id);
    const r = await this.store.keys.revoke(id);
    if (!r) throw new EngineError('UNKNOWN_KEY', `no key with id ${id}`);
    this.directory?.apply(r);
    return keyView(r);
  }

  /** Changes a key's tier; throws EngineError BAD_TIER or UNKNOWN_KEY. */
  async setTier(id: number, tier: string): Promise<KeyView> {
    checkKeyId(id);
    const r = await this.store.keys.setTier(id, checkTier(tier));
    if (!r) throw new EngineError('UNKNOWN_KEY', `no key with id ${id}`);
    this.directory?.apply(r);
    return keyView(r);
  }

  /**
   * Makes `value` a valid pro key (the `SVC_DEMO_KEY` of demo mode and outside checks): inserted if new, tier
   * reset to pro and revocation cleared if it exists. Credited like any new key.
   */
  async provisionDemoKey(value: string): Promise<KeyView> {
    if (value.trim().length < 8) throw new EngineError('BAD_DEMO_KEY', 'SVC_DEMO_KEY must have at least 8 characters');
    const record = await this.store.transaction(async (tx) => {
      const rec = await tx.keys.upsertByHash({
        keyHash: hashApiKey(value),
        prefix: keyDisplayPrefix(value),
        tier: 'pro',
        label: 'demo (SVC_DEMO_KEY)',
        referralCode: generateReferralCode(),
      });
      await creditSignup(tx, rec);
      return rec;
    });
    this.directory?.apply(record);
    return keyView(record);
  }
}

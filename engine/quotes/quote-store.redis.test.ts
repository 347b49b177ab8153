import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RedisQuoteStore } from './redis-quote-store.js';
import { quoteStoreSuite } from './testing/quote-store-suite.js';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

quoteStoreSuite('redis', async (now) => {
  // Two connections (two instances) under one random prefix; every key of the run is deleted after.
  const keyPrefix = `test:quotes:${randomUUID()}:`;
  const c1 = new Redis(url, { keyPrefix, maxRetriesPerRequest: 1 });
  const c2 = new Redis(url, { keyPrefix, maxRetriesPerRequest: 1 });
  return {
    a: new RedisQuoteStore(c1, now),
    b: new RedisQuoteStore(c2, now),
    close: async () => {
      const raw = new Redis(url);
      const keys = await raw.keys(`${keyPrefix}*`);
      if (keys.length > 0) await raw.del(...keys);
      raw.disconnect();
      c1.disconnect();
      c2.disconnect();
    },
  };
});

/**
 * Fixed-window rate limiting by (rule, key). In memory for one process; in Redis when REDIS_URL is set,
 * so that every process behind a load balancer shares the counts.
 */
import { Redis } from 'ioredis';
import { tooManyRequests } from './errors.js';

export interface RateRule {
  /** Name of the rule, also its store-config path suffix: api/rate_limit/<name>. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one hit; true while the count is within the limit. */
  hit(rule: RateRule, key: string): Promise<boolean>;
  /** True when the key has reached the limit in the current window (counts nothing). */
  blocked(rule: RateRule, key: string): Promise<boolean>;
  /** Counts one hit and throws 429 past the limit. */
  consume(rule: RateRule, key: string): Promise<void>;
  reset(rule: RateRule, key: string): Promise<void>;
  close(): Promise<void>;
}

abstract class BaseLimiter implements RateLimiter {
  constructor(protected readonly enabled: boolean) {}
  abstract count(id: string, windowSeconds: number): Promise<number>;
  abstract clear(id: string): Promise<void>;
  abstract current(id: string): Promise<number>;

  async blocked(rule: RateRule, key: string): Promise<boolean> {
    if (!this.enabled || rule.limit <= 0) return false;
    return (await this.current(`rl:${rule.name}:${key}`)) >= rule.limit;
  }
  abstract close(): Promise<void>;

  async hit(rule: RateRule, key: string): Promise<boolean> {
    if (!this.enabled || rule.limit <= 0) return true;
    return (await this.count(`rl:${rule.name}:${key}`, rule.windowSeconds)) <= rule.limit;
  }

  async consume(rule: RateRule, key: string): Promise<void> {
    if (!(await this.hit(rule, key))) throw tooManyRequests();
  }

  reset(rule: RateRule, key: string): Promise<void> {
    return this.clear(`rl:${rule.name}:${key}`);
  }
}

class MemoryLimiter extends BaseLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(enabled: boolean) {
    super(enabled);
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    }, 60_000);
    this.sweeper.unref();
  }

  async count(id: string, windowSeconds: number): Promise<number> {
    const now = Date.now();
    let w = this.windows.get(id);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(id, w);
    }
    return ++w.count;
  }

  async clear(id: string): Promise<void> {
    this.windows.delete(id);
  }

  async current(id: string): Promise<number> {
    const w = this.windows.get(id);
    return w && w.resetAt > Date.now() ? w.count : 0;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

class RedisLimiter extends BaseLimiter {
  constructor(
    enabled: boolean,
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    super(enabled);
  }

  async count(id: string, windowSeconds: number): Promise<number> {
    const key = this.prefix + id;
    const res = await this.redis.multi().incr(key).expire(key, windowSeconds, 'NX').exec();
    const [err, value] = res?.[0] ?? [new Error('no reply'), 0];
    if (err) throw err;
    return Number(value);
  }

  async clear(id: string): Promise<void> {
    await this.redis.del(this.prefix + id);
  }

  async current(id: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + id)) ?? 0);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export function createRateLimiter(opts: { enabled: boolean; redisUrl?: string; prefix?: string }): RateLimiter {
  if (!opts.redisUrl) return new MemoryLimiter(opts.enabled);
  const redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  redis.on('error', () => {
    /* reported by the failing command */
  });
  return new RedisLimiter(opts.enabled, redis, opts.prefix ?? 'commerce:');
}

/**
 * A rule whose limit comes from store config `api/rate_limit/<name>` (0 disables it), with its window.
 * Modules declare the defaults of the rules they use.
 */
export function configuredRule(settings: { getInt(path: string, storeId?: number): number }, name: string, windowSeconds: number, storeId?: number): RateRule {
  return { name, limit: settings.getInt(`api/rate_limit/${name}`, storeId), windowSeconds };
}

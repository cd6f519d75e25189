/**
 * Sliding-window rate limiting by (rule, key): a hit is refused while `limit` hits already fall within the
 * last `windowSeconds`. In memory for one process; in Redis when REDIS_URL is set, so that every process
 * behind a load balancer shares the counts.
 *
 * Each key keeps the times of its most recent `limit + 1` hits only (enough to tell "over the limit"), so a
 * flood costs a bounded amount of memory.
 */
import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { tooManyRequests } from './errors.js';

export interface RateRule {
  /** Name of the rule, also its store-config path suffix: api/rate_limit/<name>. */
  name: string;
  /** Hits allowed per window; 0 (or less) disables the rule. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one hit; true while the count in the window is within the limit. */
  hit(rule: RateRule, key: string): Promise<boolean>;
  /**
   * Counts `cost` hits at once (a batch of calls) when, with them, the window stays within the limit, and
   * returns true; otherwise counts nothing and returns false. For quotas a refused caller retries against: unlike
   * `hit`, refused attempts do not keep a client that retries often locked out.
   */
  take(rule: RateRule, key: string, cost?: number): Promise<boolean>;
  /**
   * Gives back one hit that `take` counted (the newest in the window), for attempts that count only when they
   * fail: the slot is taken before the attempt, so that parallel attempts cannot all pass a check made first.
   */
  release(rule: RateRule, key: string): Promise<void>;
  /** True when the key has reached the limit in the current window (counts nothing). */
  blocked(rule: RateRule, key: string): Promise<boolean>;
  /** Counts one hit and throws 429 past the limit. */
  consume(rule: RateRule, key: string): Promise<void>;
  reset(rule: RateRule, key: string): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  enabled: boolean;
  redisUrl?: string;
  /** Prefix of every Redis key (default `commerce:`). */
  prefix?: string;
  /** Milliseconds since the epoch; tests move time with it. */
  clock?: () => number;
}

abstract class BaseLimiter implements RateLimiter {
  constructor(
    private readonly enabled: boolean,
    protected readonly clock: () => number,
  ) {}

  /** Records a hit at `now` and returns the number of hits in (now - windowMs, now], at most keep. */
  protected abstract record(id: string, now: number, windowMs: number, keep: number): Promise<number>;
  /** Records `cost` hits at `now` if the hits in (now - windowMs, now] stay within `limit` with them. */
  protected abstract recordWithin(id: string, now: number, windowMs: number, limit: number, cost: number): Promise<boolean>;
  /** Hits in (now - windowMs, now]. */
  protected abstract countSince(id: string, now: number, windowMs: number): Promise<number>;
  /** Removes the newest hit, if any. */
  protected abstract dropNewest(id: string): Promise<void>;
  protected abstract clear(id: string): Promise<void>;
  abstract close(): Promise<void>;

  private active(rule: RateRule): boolean {
    return this.enabled && rule.limit > 0;
  }

  async hit(rule: RateRule, key: string): Promise<boolean> {
    if (!this.active(rule)) return true;
    const n = await this.record(`rl:${rule.name}:${key}`, this.clock(), rule.windowSeconds * 1000, rule.limit + 1);
    return n <= rule.limit;
  }

  async take(rule: RateRule, key: string, cost = 1): Promise<boolean> {
    if (!this.active(rule)) return true;
    const n = Math.max(1, Math.floor(cost));
    if (n > rule.limit) return false;
    return this.recordWithin(`rl:${rule.name}:${key}`, this.clock(), rule.windowSeconds * 1000, rule.limit, n);
  }

  async release(rule: RateRule, key: string): Promise<void> {
    if (this.active(rule)) await this.dropNewest(`rl:${rule.name}:${key}`);
  }

  async blocked(rule: RateRule, key: string): Promise<boolean> {
    if (!this.active(rule)) return false;
    return (await this.countSince(`rl:${rule.name}:${key}`, this.clock(), rule.windowSeconds * 1000)) >= rule.limit;
  }

  async consume(rule: RateRule, key: string): Promise<void> {
    if (!(await this.hit(rule, key))) throw tooManyRequests();
  }

  reset(rule: RateRule, key: string): Promise<void> {
    return this.clear(`rl:${rule.name}:${key}`);
  }
}

class MemoryLimiter extends BaseLimiter {
  /** key → hit times (ms), oldest first, and when the last of them leaves its window */
  private readonly logs = new Map<string, { times: number[]; until: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(enabled: boolean, clock: () => number) {
    super(enabled, clock);
    this.sweeper = setInterval(() => {
      const now = this.clock();
      for (const [k, log] of this.logs) if (log.until <= now) this.logs.delete(k);
    }, 60_000);
    this.sweeper.unref();
  }

  protected async record(id: string, now: number, windowMs: number, keep: number): Promise<number> {
    let log = this.logs.get(id);
    if (!log) {
      log = { times: [], until: 0 };
      this.logs.set(id, log);
    }
    const times = log.times;
    while (times.length && times[0] <= now - windowMs) times.shift();
    times.push(now);
    if (times.length > keep) times.splice(0, times.length - keep);
    log.until = now + windowMs;
    return times.length;
  }

  protected async recordWithin(id: string, now: number, windowMs: number, limit: number, cost: number): Promise<boolean> {
    const log = this.logs.get(id) ?? { times: [], until: 0 };
    const times = log.times;
    while (times.length && times[0] <= now - windowMs) times.shift();
    if (times.length + cost > limit) return false;
    for (let i = 0; i < cost; i++) times.push(now);
    log.until = now + windowMs;
    this.logs.set(id, log);
    return true;
  }

  protected async countSince(id: string, now: number, windowMs: number): Promise<number> {
    const times = this.logs.get(id)?.times ?? [];
    let n = 0;
    for (const t of times) if (t > now - windowMs) n++;
    return n;
  }

  protected async dropNewest(id: string): Promise<void> {
    this.logs.get(id)?.times.pop();
  }

  protected async clear(id: string): Promise<void> {
    this.logs.delete(id);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

/** `take` in one atomic step: drop aged hits, then add `cost` hits only if they fit (1) or add nothing (0). */
const TAKE_SCRIPT = `
local key, now, win, limit, cost = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - win)
if redis.call('ZCARD', key) + cost > limit then return 0 end
for i = 1, cost do redis.call('ZADD', key, now, ARGV[5] .. ':' .. i) end
redis.call('PEXPIRE', key, win)
return 1
`;

/** A sorted set per key: members are unique hit ids, scores the hit times. */
class RedisLimiter extends BaseLimiter {
  constructor(
    enabled: boolean,
    clock: () => number,
    private readonly redis: Promise<Redis>,
    private readonly prefix: string,
  ) {
    super(enabled, clock);
  }

  protected async record(id: string, now: number, windowMs: number, keep: number): Promise<number> {
    const key = this.prefix + id;
    const member = `${now}:${crypto.randomBytes(6).toString('hex')}`;
    const res = await (
      await this.redis
    )
      .multi()
      .zremrangebyscore(key, '-inf', now - windowMs)
      .zadd(key, now, member)
      .zremrangebyrank(key, 0, -(keep + 1))
      .zcard(key)
      .pexpire(key, windowMs)
      .exec();
    if (!res) throw new Error('rate limiter: Redis transaction was discarded');
    for (const [err] of res) if (err) throw err;
    return Number(res[3][1]);
  }

  protected async recordWithin(id: string, now: number, windowMs: number, limit: number, cost: number): Promise<boolean> {
    const tag = `${now}:${crypto.randomBytes(6).toString('hex')}`;
    const taken = await (await this.redis).eval(TAKE_SCRIPT, 1, this.prefix + id, now, windowMs, limit, cost, tag);
    return Number(taken) === 1;
  }

  protected async countSince(id: string, now: number, windowMs: number): Promise<number> {
    return (await this.redis).zcount(this.prefix + id, `(${now - windowMs}`, '+inf');
  }

  protected async dropNewest(id: string): Promise<void> {
    await (await this.redis).zpopmax(this.prefix + id);
  }

  protected async clear(id: string): Promise<void> {
    await (await this.redis).del(this.prefix + id);
  }

  async close(): Promise<void> {
    await (await this.redis).quit().catch(() => undefined);
  }
}

export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  const clock = opts.clock ?? Date.now;
  if (!opts.redisUrl) return new MemoryLimiter(opts.enabled, clock);
  const url = opts.redisUrl;
  // the client library is loaded only where Redis is configured
  const redis = import('ioredis').then(({ Redis }) => {
    const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    client.on('error', () => {
      /* reported by the failing command */
    });
    return client;
  });
  return new RedisLimiter(opts.enabled, clock, redis, opts.prefix ?? 'commerce:');
}

/**
 * A rule whose limit comes from store config `api/rate_limit/<name>` (0 disables it), with its window.
 * Modules declare the defaults of the rules they use.
 */
export function configuredRule(
  settings: { getInt(path: string, storeId?: number): number },
  name: string,
  windowSeconds: number,
  storeId?: number,
): RateRule {
  return { name, limit: settings.getInt(`api/rate_limit/${name}`, storeId), windowSeconds };
}

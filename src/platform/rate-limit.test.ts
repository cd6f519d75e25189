/**
 * The sliding-window limiter, in memory and in Redis (shared by every process that points at the same server).
 * The Redis half runs when REDIS_URL is set (CI sets it), under a key prefix of its own so that runs never meet;
 * `npm test` on a machine without Redis skips it.
 */
import crypto from 'node:crypto';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { AppError } from './errors.js';
import { createRateLimiter, type RateLimiter, type RateRule } from './rate-limit.js';

const REDIS_URL = process.env.REDIS_URL ?? '';
const NO_REDIS = REDIS_URL ? false : 'REDIS_URL is not set';
const rule: RateRule = { name: 'test_rule', limit: 3, windowSeconds: 10 };

/** A clock the test moves by hand. */
function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function behavesAsSlidingWindow(make: (clock: () => number) => RateLimiter) {
  test('allows `limit` hits in the window, refuses the next, and frees one slot as each hit ages out', async () => {
    const clock = manualClock();
    const l = make(clock.now);
    try {
      assert.equal(await l.hit(rule, 'k'), true); // t=0
      clock.advance(4000);
      assert.equal(await l.hit(rule, 'k'), true); // t=4
      assert.equal(await l.blocked(rule, 'k'), false);
      clock.advance(1000);
      assert.equal(await l.hit(rule, 'k'), true); // t=5
      assert.equal(await l.blocked(rule, 'k'), true);
      assert.equal(await l.hit(rule, 'k'), false, 'the 4th hit inside 10 s is refused'); // t=5, counted
      clock.advance(5001); // t=10.001: the t=0 hit has left the window, three remain (4, 5, 5)
      assert.equal(await l.blocked(rule, 'k'), true, 'a fixed window would have reset here');
      clock.advance(4000); // t=14.001: the t=4 hit left; two remain
      assert.equal(await l.blocked(rule, 'k'), false);
      assert.equal(await l.hit(rule, 'k'), true);
      assert.equal(await l.hit(rule, 'k'), false);
      clock.advance(10_001);
      assert.equal(await l.blocked(rule, 'k'), false, 'everything aged out');
    } finally {
      await l.close();
    }
  });

  test('keys and rules are counted apart; reset clears a key', async () => {
    const clock = manualClock();
    const l = make(clock.now);
    try {
      for (let i = 0; i < 3; i++) await l.hit(rule, 'a');
      assert.equal(await l.blocked(rule, 'a'), true);
      assert.equal(await l.blocked(rule, 'b'), false);
      assert.equal(await l.blocked({ ...rule, name: 'other_rule' }, 'a'), false);
      await l.reset(rule, 'a');
      assert.equal(await l.blocked(rule, 'a'), false);
    } finally {
      await l.close();
    }
  });

  test('consume throws 429 too_many_requests past the limit', async () => {
    const l = make(manualClock().now);
    try {
      for (let i = 0; i < 3; i++) await l.consume(rule, 'c');
      await assert.rejects(
        l.consume(rule, 'c'),
        (err: unknown) => err instanceof AppError && err.status === 429 && err.error === 'too_many_requests',
      );
    } finally {
      await l.close();
    }
  });

  test('a flood keeps the key blocked while it lasts, then it recovers', async () => {
    const clock = manualClock();
    const l = make(clock.now);
    try {
      for (let i = 0; i < 200; i++) {
        await l.hit(rule, 'flood');
        clock.advance(100);
      }
      assert.equal(await l.blocked(rule, 'flood'), true);
      clock.advance(10_000);
      assert.equal(await l.blocked(rule, 'flood'), false);
      assert.equal(await l.hit(rule, 'flood'), true);
    } finally {
      await l.close();
    }
  });

  test('take counts a batch of hits only when all of them fit; a refused batch counts nothing', async () => {
    const clock = manualClock();
    const l = make(clock.now);
    const five = { ...rule, name: 'test_take', limit: 5 };
    try {
      assert.equal(await l.take(five, 't', 3), true); // t=0: 3
      clock.advance(4000);
      assert.equal(await l.take(five, 't', 3), false, '3 + 3 is past 5');
      assert.equal(await l.blocked(five, 't'), false, 'the refused batch left no hits behind');
      assert.equal(await l.take(five, 't', 2), true); // t=4: 5
      assert.equal(await l.take(five, 't'), false);
      assert.equal(await l.hit(five, 't'), false, 'hit and take share the count');
      clock.advance(6001); // t=10.001: the three hits of t=0 left the window, two remain (4) plus the refused hit
      assert.equal(await l.take(five, 't', 2), true);
      assert.equal(await l.take(five, 't', 6), false, 'a batch larger than the limit never fits');
      assert.equal(await l.take({ ...five, limit: 0 }, 't', 100), true, 'a limit of 0 takes anything');
    } finally {
      await l.close();
    }
  });

  test('a limit of 0 disables the rule', async () => {
    const l = make(manualClock().now);
    try {
      const off = { ...rule, limit: 0 };
      for (let i = 0; i < 10; i++) assert.equal(await l.hit(off, 'z'), true);
      assert.equal(await l.blocked(off, 'z'), false);
    } finally {
      await l.close();
    }
  });
}

describe('memory limiter', () => {
  behavesAsSlidingWindow((clock) => createRateLimiter({ enabled: true, clock }));

  test('a disabled limiter refuses nothing', async () => {
    const l = createRateLimiter({ enabled: false });
    for (let i = 0; i < 10; i++) await l.consume(rule, 'x');
    assert.equal(await l.blocked(rule, 'x'), false);
    await l.close();
  });
});

describe('Redis limiter', { skip: NO_REDIS }, () => {
  const prefix = `test:${process.pid}:${crypto.randomBytes(4).toString('hex')}:`;
  after(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  let n = 0;
  behavesAsSlidingWindow((clock) => createRateLimiter({ enabled: true, redisUrl: REDIS_URL, prefix: `${prefix}${n++}:`, clock }));

  test('two processes on one Redis share the counts', async () => {
    const shared = `${prefix}shared:`;
    const a = createRateLimiter({ enabled: true, redisUrl: REDIS_URL, prefix: shared });
    const b = createRateLimiter({ enabled: true, redisUrl: REDIS_URL, prefix: shared });
    const apart = createRateLimiter({ enabled: true, redisUrl: REDIS_URL, prefix: `${prefix}apart:` });
    try {
      assert.equal(await a.hit(rule, 'ip'), true);
      assert.equal(await b.hit(rule, 'ip'), true);
      assert.equal(await a.blocked(rule, 'ip'), false);
      assert.equal(await b.hit(rule, 'ip'), true);
      assert.equal(await a.blocked(rule, 'ip'), true, 'hits made through b count in a');
      assert.equal(await a.hit(rule, 'ip'), false);
      assert.equal(await apart.blocked(rule, 'ip'), false, 'another prefix is another store');
      await b.reset(rule, 'ip');
      assert.equal(await a.blocked(rule, 'ip'), false);
    } finally {
      await Promise.all([a.close(), b.close(), apart.close()]);
    }
  });

  test('keys expire with their window', async () => {
    const l = createRateLimiter({ enabled: true, redisUrl: REDIS_URL, prefix: `${prefix}ttl:` });
    const redis = new Redis(REDIS_URL);
    try {
      await l.hit(rule, 'k');
      const ttl = await redis.pttl(`${prefix}ttl:rl:${rule.name}:k`);
      assert.ok(ttl > 0 && ttl <= 10_000, `ttl ${ttl}`);
    } finally {
      await l.close();
      await redis.quit();
    }
  });

  test('concurrent hits from several processes never let more than the limit through', async () => {
    const shared = `${prefix}race:`;
    const limiters = [1, 2, 3].map(() => createRateLimiter({ enabled: true, redisUrl: REDIS_URL, prefix: shared }));
    try {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => limiters[i % 3].hit({ ...rule, limit: 5 }, 'burst')));
      assert.equal(results.filter(Boolean).length, 5);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });

  test('concurrent batches from several processes never take more than the limit', async () => {
    const shared = `${prefix}race-take:`;
    const limiters = [1, 2, 3].map(() => createRateLimiter({ enabled: true, redisUrl: REDIS_URL, prefix: shared }));
    try {
      const batch = { ...rule, name: 'test_take', limit: 10 };
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => limiters[i % 3].take(batch, 'burst', 3)));
      assert.equal(results.filter(Boolean).length, 3, 'three batches of 3 fit in 10, a fourth does not');
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });
});

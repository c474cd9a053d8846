import t from 'tap';
import { PRELOAD_CONCURRENCY, createLimiter } from '../../client/lib/concurrency.ts';

function deferred<T = void>() {
  let resolve!: (v: T | PromiseLike<T>) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
};

t.test('default cap is 5', async (t) => {
  t.equal(PRELOAD_CONCURRENCY, 5);
  const limiter = createLimiter();
  const gates = Array.from({ length: 8 }, () => deferred());
  let started = 0;
  let maxSeen = 0;
  const all = gates.map((g, i) =>
    limiter.run(async () => {
      started++;
      maxSeen = Math.max(maxSeen, limiter.active());
      await g.promise;
      return i;
    }),
  );
  await settle();
  t.equal(started, 5, 'five started');
  t.equal(limiter.active(), 5);
  t.equal(limiter.pending(), 3);
  gates[0]!.resolve();
  await settle();
  t.equal(started, 6, 'one finished, one more starts');
  t.equal(limiter.active(), 5);
  t.equal(limiter.pending(), 2);
  for (const g of gates) g.resolve();
  t.same(await Promise.all(all), [0, 1, 2, 3, 4, 5, 6, 7], 'results in call order');
  t.equal(maxSeen, 5, 'never more than 5 at once');
  t.equal(limiter.active(), 0);
  t.equal(limiter.pending(), 0);
});

t.test('cap of 2, FIFO start order', async (t) => {
  const limiter = createLimiter(2);
  const order: string[] = [];
  const gates = new Map<string, ReturnType<typeof deferred<void>>>();
  const job = (name: string) => {
    const g = deferred();
    gates.set(name, g);
    return limiter.run(async () => {
      order.push(`start ${name}`);
      await g.promise;
      order.push(`end ${name}`);
    });
  };
  const jobs = ['a', 'b', 'c', 'd'].map(job);
  await settle();
  t.same(order, ['start a', 'start b']);
  gates.get('b')!.resolve();
  await settle();
  t.same(order, ['start a', 'start b', 'end b', 'start c']);
  gates.get('a')!.resolve();
  gates.get('c')!.resolve();
  gates.get('d')!.resolve();
  await Promise.all(jobs);
  t.same(
    order.filter((s) => s.startsWith('start')),
    ['start a', 'start b', 'start c', 'start d'],
  );
});

t.test('failures do not block the queue', async (t) => {
  const limiter = createLimiter(1);
  const a = limiter.run(async () => {
    throw new Error('rejected');
  });
  const b = limiter.run(() => {
    throw new Error('sync throw');
  });
  const c = limiter.run(() => 'plain value');
  const d = limiter.run(() => Promise.reject(new Error('thenable')));
  const e = limiter.run(async () => 'after failures');
  await t.rejects(a, /rejected/);
  await t.rejects(b, /sync throw/);
  t.equal(await c, 'plain value');
  await t.rejects(d, /thenable/);
  t.equal(await e, 'after failures');
  t.equal(limiter.active(), 0);
  t.equal(limiter.pending(), 0);
});

t.test('a never-settling task holds only its own slot', async (t) => {
  const limiter = createLimiter(2);
  void limiter.run(() => new Promise(() => {}));
  const results: number[] = [];
  await Promise.all([1, 2, 3].map((n) => limiter.run(async () => results.push(n))));
  t.same(results, [1, 2, 3]);
  t.equal(limiter.active(), 1);
});

t.test('clear() drops queued tasks', async (t) => {
  const limiter = createLimiter(1);
  const g = deferred();
  const first = limiter.run(() => g.promise);
  let ran = false;
  const queued = limiter.run(() => {
    ran = true;
  });
  t.equal(limiter.pending(), 1);
  t.equal(limiter.clear(), 1);
  await t.rejects(queued, { name: 'AbortError' });
  g.resolve();
  await first;
  await settle();
  t.equal(ran, false);
  t.equal(limiter.pending(), 0);
});

t.test('invalid max', async (t) => {
  t.throws(() => createLimiter(0), RangeError);
  t.throws(() => createLimiter(1.5), RangeError);
  t.throws(() => createLimiter(Number.NaN), RangeError);
});

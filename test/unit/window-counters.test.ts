/**
 * lib/rate-limit/window-counters.ts: a limit's counters in memory never drop a live window for
 * room; past the room new keys count in the overflow sketch, which never counts a key low, and the
 * sketch goes once its windows are over.
 */
import t from 'tap';
import { WindowCounters } from '../../lib/rate-limit/window-counters.ts';

const minute = 60_000;

t.test('a flood of other keys never drops a counter still counting, nor refuses a new one', async (t) => {
  const counters = new WindowCounters(100, minute);
  for (let i = 0; i < 3; i += 1) counters.incr('reset:owner', 0, 3);
  for (let i = 0; i < 5_200; i += 1) counters.incr(`reset:stranger-${i}`, 1_000 + i, 3);
  t.equal(counters.size, 100, 'memory counts 100 keys exactly');
  t.ok(counters.overflowing(10_000), 'the rest approximately');
  t.same(counters.incr('reset:owner', 10_000, 3), { current: 4, ttl: minute - 10_000 }, 'the owner still counts');
  t.equal(counters.incr('reset:newcomer', 10_000, 3).current, 1, 'a new key is counted, not refused');
  t.equal(counters.incr('reset:stranger-4000', 10_000, 3).current, 2, 'a flooding key goes on from its count');
});

t.test('a key counted approximately is never counted low, and stays there while it counts', async (t) => {
  const counters = new WindowCounters(1, minute);
  counters.incr('exact', 0, 5);
  for (let i = 0; i < 7; i += 1) t.equal(counters.incr('flooder', 1_000, 5).current, i + 1);
  const refused = counters.incr('flooder', 2_000, 5);
  t.ok(refused.current > 5, 'past the limit');
  t.equal(refused.ttl, 2 * minute - 2_000, 'until the next window ends (its counts live one to two windows)');
  t.equal(counters.incr('exact', minute + 1, 5).current, 1, "room again: exact's window ended");
  t.equal(counters.incr('flooder', minute + 2, 5).current, 9, 'the flooder keeps its count, in the previous window');
  t.equal(counters.read('flooder', minute + 2, 5).ttl, minute - 2, 'which ends with this one');
  t.equal(counters.read('flooder', 2 * minute, 5).current, 1, "a window later only this window's count is left");
  t.notOk(counters.overflowing(3 * minute), 'two windows on the sketch is gone');
  t.equal(counters.incr('flooder', 3 * minute, 5).current, 1, 'and the key counts exactly again');
});

t.test('ended windows make room, oldest first, and restart at one', async (t) => {
  const counters = new WindowCounters(2, minute);
  counters.incr('a', 0, 5);
  counters.incr('b', 30_000, 5);
  counters.incr('c', 59_999, 5);
  t.equal(counters.size, 2, 'c counts in the overflow while both count');
  t.same(counters.incr('d', minute, 5), { current: 1, ttl: minute }, "a's window ended: d takes its place");
  t.same(counters.read('a', minute, 5), { current: 0, ttl: 0 });
  t.same(counters.read('b', minute, 5), { current: 1, ttl: 30_000 }, 'b is untouched');
  t.same(counters.incr('b', 90_000, 5), { current: 1, ttl: minute }, 'an ended window restarts at one');
});

t.test('a refund takes one back, never below zero, never after the window', async (t) => {
  for (const capacity of [10, 0]) {
    const counters = new WindowCounters(capacity, minute);
    const where = capacity ? 'exact' : 'approximate';
    counters.incr('k', 0, 5);
    counters.incr('k', 0, 5);
    counters.decr('k', 1);
    t.equal(counters.read('k', 2, 5).current, 1, where);
    counters.decr('k', 3);
    counters.decr('k', 4);
    t.equal(counters.read('k', 5, 5).current, 0, `${where}: never below zero`);
    counters.incr('k', minute - 1, 5);
    counters.decr('k', 2 * minute + 1);
    t.equal(counters.incr('k', 2 * minute + 1, 5).current, 1, `${where}: the next window starts afresh`);
  }
});

t.test('a clock set back neither ends nor resets a count', async (t) => {
  const counters = new WindowCounters(0, minute);
  counters.incr('k', 5 * minute, 5);
  t.equal(counters.incr('k', 4 * minute, 5).current, 2);
});

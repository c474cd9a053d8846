/**
 * lib/rate-limit/window-counters.ts: a limit's counters in memory never drop a live window for
 * room; they refuse new keys until the oldest window ends, then take them again.
 */
import t from 'tap';
import { WindowCounters } from '../../lib/rate-limit/window-counters.ts';

const minute = 60_000;

t.test('a flood of other keys never drops a counter still counting', async (t) => {
  const counters = new WindowCounters(100);
  for (let i = 0; i < 3; i += 1) counters.incr('reset:owner', minute, 0);
  let refused = 0;
  for (let i = 0; i < 5_200; i += 1) if (!counters.incr(`reset:stranger-${i}`, minute, 1_000 + i)) refused += 1;
  t.equal(refused, 5_200 - 99, 'past the room every new key is refused');
  t.equal(counters.size, 100, 'memory stays bounded');
  t.same(counters.incr('reset:owner', minute, 10_000), { current: 4, ttl: minute - 10_000 }, 'the owner still counts');
  t.equal(counters.untilRoom(10_000), minute - 10_000, 'room comes when the oldest window ends');
});

t.test('ended windows make room, oldest first, and restart at one', async (t) => {
  const counters = new WindowCounters(2);
  t.ok(counters.incr('a', minute, 0));
  t.ok(counters.incr('b', minute, 30_000));
  t.notOk(counters.incr('c', minute, 59_999), 'full while both count');
  t.same(counters.incr('c', minute, minute), { current: 1, ttl: minute }, "a's window ended: c takes its place");
  t.same(counters.read('a', minute), { current: 0, ttl: 0 });
  t.same(counters.read('b', minute), { current: 1, ttl: 30_000 }, 'b is untouched');
  t.same(counters.incr('b', minute, 90_000), { current: 1, ttl: minute }, 'an ended window restarts at one');
});

t.test('a refund takes one back, never below zero, never after the window', async (t) => {
  const counters = new WindowCounters(10);
  counters.incr('k', minute, 0);
  counters.incr('k', minute, 0);
  counters.decr('k', 1);
  t.equal(counters.read('k', 2).current, 1);
  counters.decr('k', 3);
  counters.decr('k', 4);
  t.equal(counters.read('k', 5).current, 0);
  counters.decr('k', minute);
  t.equal(counters.incr('k', minute, minute)?.current, 1, 'the next window starts afresh');
});

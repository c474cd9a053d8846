import { LRUCache } from 'lru-cache';

/**
 * `compute` remembered for the request headers it was last asked about, which repeat: at most
 * `size` answers (an LRU, boxed: it keeps no null), for strings up to `maxLength`.
 */
export function stringMemo<T>(
  compute: (value: string) => T,
  { size = 256, maxLength = 300 }: { size?: number; maxLength?: number } = {},
): (value: string) => T {
  const known = new LRUCache<string, { answer: T }>({ max: size });
  return (value) => {
    const remembered = known.get(value);
    if (remembered) return remembered.answer;
    const answer = compute(value);
    if (value.length <= maxLength) known.set(value, { answer });
    return answer;
  };
}

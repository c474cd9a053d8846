/**
 * `compute` remembered for the strings it was last asked about: request headers (User-Agent,
 * Accept-Language, Accept-Encoding) repeat from request to request while reading them costs.
 * At most `size` answers, for strings no longer than `maxLength`; when full it starts again, so
 * a client sending a new value each time costs what it would without this, and no more memory.
 */
export function stringMemo<T>(
  compute: (value: string) => T,
  { size = 256, maxLength = 300 }: { size?: number; maxLength?: number } = {},
): (value: string) => T {
  const known = new Map<string, T>();
  return (value) => {
    const remembered = known.get(value);
    if (remembered !== undefined || known.has(value)) return remembered as T;
    const computed = compute(value);
    if (value.length <= maxLength) {
      if (known.size >= size) known.clear();
      known.set(value, computed);
    }
    return computed;
  };
}

/**
 * The query's one form: each parameter the route reads once, with the first value (the one the
 * page reads), in declared order. `undefined` when it holds a parameter the page does not read.
 */
export function normalQuery(declared: readonly string[] | undefined, search: URLSearchParams): string | undefined {
  for (const name of search.keys()) if (!declared?.includes(name)) return undefined;
  const normal = new URLSearchParams();
  for (const name of declared ?? []) {
    const value = search.get(name);
    if (value !== null) normal.append(name, value);
  }
  return normal.toString();
}

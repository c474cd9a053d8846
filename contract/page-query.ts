/**
 * A page's query string in its one normal form: each parameter the page reads (its route's
 * `query`) once, with the first value given (the one `URLSearchParams.get` and so the page reads),
 * in the order the route declares them, encoded as `URLSearchParams` encodes. Two addresses that
 * render the same page have the same normal form, and only an address already in it is cached.
 *
 * `undefined` when the query holds a parameter the page does not read: that address is rendered
 * for its visitor as it was spelled (its links keep the query) and never cached.
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

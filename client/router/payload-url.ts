/** `/asdas/x` → `/asdas/x/_payload.json`; `/` → `/_payload.json`: also the page's key in SWR's cache. */
export function payloadUrl(pathname: string): string {
  return `${payloadKey(pathname).replace(/\/$/, '')}/_payload.json`;
}

/** A page path without trailing slashes. */
export function payloadKey(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

/** Its key with this page's build: no shared cache hands one build's data to another (decision 0044). */
export function payloadFetchUrl(key: string): string {
  const buildId = (window as { __ASDAS__?: { buildId?: string } }).__ASDAS__?.buildId;
  return buildId ? `${key}?build=${encodeURIComponent(buildId)}` : key;
}

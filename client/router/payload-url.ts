/** `/asdas/x` → `/asdas/x/_payload.json`; `/` → `/_payload.json`: also the page's key in SWR's cache. */
export function payloadUrl(pathname: string): string {
  return `${payloadKey(pathname).replace(/\/$/, '')}/_payload.json`;
}

/** A page path without trailing slashes. */
export function payloadKey(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

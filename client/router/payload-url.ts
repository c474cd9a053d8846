/** `/asdas/x` → `/asdas/x/_payload.json`; `/` → `/_payload.json`. */
export function payloadUrl(pathname: string): string {
  return `${payloadKey(pathname).replace(/\/$/, '')}/_payload.json`;
}

/** A page path without trailing slashes: the payload cache's key (payload.ts). */
export function payloadKey(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

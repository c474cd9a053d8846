/** What `GET /api/_nuxt_icon/...` answers for one collection and list of names. */
export type IconAnswer =
  | { found: true; body: string; etag: string }
  | { found: false; code: 'ICONS_NOT_FOUND' | 'ICON_COLLECTION_NOT_FOUND'; message: string };

/** The headers of every icon answer but a found one: browsers and proxies keep none of them. */
export const noStore = { 'cache-control': 'no-store' };

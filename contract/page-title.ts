export const siteName = 'Asdas';

/** A page's `<title>`: `Bonus · Asdas`, or the site's name alone. */
export function pageTitle(title: string, name = siteName): string {
  return !title || title === name ? name : `${title} · ${name}`;
}

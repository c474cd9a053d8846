import { escapeHtml } from '../contract/escape-html.ts';
import { locales, type Locale } from '../contract/locales.ts';
import { serverT } from './translations.ts';

/** The notices the server answers without rendering: overload shedding, the database away or full. */
export type Notice = 'overload' | 'unavailable' | 'storageFull';

/**
 * A notice's page in each language, made once at start: answering it must cost nothing like a
 * render (it is what an overloaded or cut-off replica sends), and it needs no script or style file.
 */
export function noticePages(notice: Notice): Record<Locale, string> {
  return Object.fromEntries(locales.map((locale) => [locale, noticePage(locale, notice)])) as Record<Locale, string>;
}

function noticePage(locale: Locale, notice: Notice): string {
  const t = serverT(locale);
  const [title, message, retry] = (['title', 'message', 'retry'] as const).map((part) =>
    escapeHtml(t(`${notice}.${part}`)),
  );
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>body{font-family:system-ui,"Noto Sans Thai",sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#f7f7f8;color:#1c1c21}main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.5rem}a{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border-radius:.4rem;background:#5b21b6;color:#fff;text-decoration:none}</style>
</head><body><main><h1>${title}</h1><p>${message}</p><a href="">${retry}</a></main></body></html>
`;
}

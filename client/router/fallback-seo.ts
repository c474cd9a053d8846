import { splitLocale, type Locale } from '../../contract/locales.ts';
import type { SeoData } from '../../contract/seo.ts';
import { translatorFor } from '../i18n.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { errorTextKeys, type PageErrorInfo } from './page-error.ts';

/** The head of a page whose data carries no `seo` (forms, errors): titled by the page, errors never indexed. */
export function fallbackSeo(pathname: string, locale: Locale, error?: PageErrorInfo): SeoData {
  const { path } = splitLocale(pathname);
  const { t } = translatorFor(locale);
  const keys = error && errorTextKeys(error.statusCode);
  const isFormPage = pageRoutes.some((route) => !route.data && `/${route.path}` === path);
  return {
    // Navigation pages are titled by their label; others (password reset ...) under `pageTitles`.
    title: keys
      ? `${t(keys.title)} (${error.statusCode})`
      : isFormPage
        ? t(`pageTitles.${path.slice(1)}`, { defaultValue: t(`nav.${path.slice(1)}`) })
        : '',
    // What the page says, never the error's message (a path, a query, developer words).
    description: keys ? t(keys.explanation) : t('site.tagline'),
    path,
    alternates: ['en', 'th'],
    type: 'website',
    breadcrumbs: [],
    ...(error ? { noindex: true } : {}),
  };
}

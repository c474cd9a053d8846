import { splitLocale, type Locale } from '../../contract/locales.ts';
import type { SeoData } from '../../contract/seo.ts';
import { translatorFor } from '../i18n.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { errorTextKeys, type PageErrorInfo } from './page-error.ts';

/** The head of a page whose data carries no `seo` (forms, errors): titled by the page, errors never indexed. */
export function fallbackSeo(pathname: string, locale: Locale, error?: PageErrorInfo): SeoData {
  const { path } = splitLocale(pathname);
  const { t } = translatorFor(locale);
  const isFormPage = pageRoutes.some((route) => !route.data && `/${route.path}` === path);
  return {
    // Navigation pages are titled by their label; others (password reset ...) under `pageTitles`.
    title: error
      ? `${t(errorTextKeys(error.statusCode).title)} (${error.statusCode})`
      : isFormPage
        ? t(`pageTitles.${path.slice(1)}`, { defaultValue: t(`nav.${path.slice(1)}`) })
        : '',
    description: error ? error.message : t('site.tagline'),
    path,
    alternates: ['en', 'th'],
    type: 'website',
    breadcrumbs: [],
    ...(error ? { noindex: true } : {}),
  };
}

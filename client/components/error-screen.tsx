import type { ReactNode } from 'react';
import { localePath } from '../../contract/locales.ts';
import { navigationIcons } from '../../contract/app-icons.ts';
import { navigationItems } from '../../contract/navigation.ts';
import { useTranslation, useTranslationLocale } from '../i18n.ts';
import { errorTextKeys, isNotFound, type PageErrorInfo } from '../router/page-error.ts';
import { hardNavigate } from '../lib/navigation-state.ts';
import { loadNavigation } from '../router/navigation-code.ts';
import { AppLink } from './app-link.tsx';
import { Icon } from './icon.tsx';

/** Status code, heading and explanation in the reader's language, then the spec's message. */
export function ErrorDetails({ info }: { info: PageErrorInfo }) {
  const { t } = useTranslation();
  const locale = useTranslationLocale();
  const keys = errorTextKeys(info.statusCode);
  return (
    <>
      <p className="error-status">{t('error.statusLabel', { statusCode: info.statusCode })}</p>
      <h1>{t(keys.heading)}</h1>
      <p className="error-explanation">{t(keys.explanation)}</p>
      {isNotFound(info) ? (
        // The spec's message ('Page not found: {path}'), as the spec's error screen shows it.
        <p className="error-detail" lang={locale === 'en' ? undefined : 'en'} data-testid="error-message">
          {info.message}
        </p>
      ) : (
        <p className="error-detail">
          <span>{t('error.detailLabel')} </span>
          {info.detail ? (
            <span className="error-message" data-testid="error-message">
              {t(`error.details.${info.detail.key}`, info.detail.values)}
            </span>
          ) : (
            <code className="error-message" data-testid="error-message" lang={locale === 'en' ? undefined : 'en'}>
              {info.message}
            </code>
          )}
        </p>
      )}
      {info.stack ? <pre className="error-stack">{info.stack}</pre> : null}
    </>
  );
}

const sections = [
  { key: 'articles', label: 'home.allArticles', path: '/asdas', icon: 'mdi:file-document' },
  ...navigationItems
    .filter((item) => item.area === 'main' && item.path !== '/')
    .map((item) => ({ key: item.key, label: `nav.${item.key}`, path: item.path, icon: navigationIcons[item.key] })),
];

/** The site's sections, so an error is never a dead end; plain links where there is no router. */
function ErrorSections({ inRouter }: { inRouter: boolean }) {
  const { t } = useTranslation();
  const locale = useTranslationLocale();
  const link = (path: string, children: ReactNode) =>
    inRouter ? (
      <AppLink to={localePath(locale, path)}>{children}</AppLink>
    ) : (
      <a href={localePath(locale, path)}>{children}</a>
    );
  return (
    <nav className="error-sections" aria-labelledby="error-sections-heading" data-testid="error-sections">
      <h2 id="error-sections-heading">{t('error.sectionsHeading')}</h2>
      <ul>
        {sections.map((section) => (
          <li key={section.key}>
            {link(
              section.path,
              <>
                <Icon name={section.icon} />
                <span>{t(section.label)}</span>
              </>,
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** An error inside the layout (a page that does not exist): what happened, then the ways on. */
export function InlineError({ info }: { info: PageErrorInfo }) {
  const { t } = useTranslation();
  const locale = useTranslationLocale();
  return (
    <div className="page error-page">
      <section className="inline-error" role="alert" data-testid="inline-error">
        <ErrorDetails info={info} />
        <p className="error-actions">
          <ClearErrorsButton onClear={clearErrors} />
          <AppLink to={localePath(locale, '/')} className="button" data-testid="error-home">
            {t('error.toHome')}
          </AppLink>
        </p>
      </section>
      {info.statusCode < 500 ? <ErrorSections inRouter /> : null}
    </div>
  );
}

/** Clear errors: `navigateTo('/')` (loaded on demand), or a full load of `/` without it. */
export function clearErrors(): void {
  void loadNavigation().then(
    ({ navigateTo }) => navigateTo('/'),
    () => hardNavigate('/'),
  );
}

/** The spec's Clear errors: a link to `/`, so it works without JavaScript. */
function ClearErrorsButton({ onClear }: { onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <a
      href="/"
      className="button button-primary"
      data-testid="clear-errors"
      onClick={(event) => {
        event.preventDefault();
        onClear();
      }}
    >
      {t('error.clear')}
    </a>
  );
}

/** The full-screen error: brand and card; "Clear errors" is a link to `/`, so it works without JavaScript. */
export function ErrorScreen({
  info,
  onClear,
  inRouter = false,
}: {
  info: PageErrorInfo;
  onClear: () => void;
  inRouter?: boolean;
}) {
  const { t } = useTranslation();
  const locale = useTranslationLocale();
  return (
    <div className="error-screen" data-testid="error-screen">
      <header className="error-brand">
        <a href={localePath(locale, '/')} className="brand-name">
          {t('site.name')}
        </a>
      </header>
      <main id="main" className="error-card">
        <div role="alert">
          <ErrorDetails info={info} />
        </div>
        <p className="error-actions">
          <ClearErrorsButton onClear={onClear} />
        </p>
        {info.statusCode < 500 ? <ErrorSections inRouter={inRouter} /> : null}
      </main>
    </div>
  );
}

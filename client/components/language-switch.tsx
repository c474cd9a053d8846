import { useTranslation } from '../i18n.ts';
import { Link, useLocation } from 'react-router';
import { cookieNames } from '../../contract/cookies.ts';
import { localePath, splitLocale, type Locale } from '../../contract/locales.ts';
import { useLocale } from '../hooks.ts';
import { languageSwitchIcon } from '../../contract/app-icons.ts';
import { Icon } from './icon.tsx';

const languageCookie = cookieNames.language;

/** Remembers the visitor's choice, so `/` no longer follows the browser's Accept-Language. */
function rememberLanguage(locale: Locale) {
  document.cookie = `${languageCookie}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/**
 * The same page in the other language: the path (and query) is kept. A plain Link: no prefetch. It
 * shows a neutral mark and the language's own name, in that language (`lang`, `hrefLang`).
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname, search } = useLocation();
  const target: Locale = locale === 'en' ? 'th' : 'en';
  const href = localePath(target, splitLocale(pathname).path) + search;
  return (
    <Link
      to={href}
      className="language-switch"
      hrefLang={target}
      lang={target}
      title={t('language.switchToLabel')}
      data-testid="language-switch"
      onClick={() => rememberLanguage(target)}
    >
      <Icon name={languageSwitchIcon} />
      <span>{t('language.switchTo')}</span>
    </Link>
  );
}

import { useTranslation } from '../i18n.ts';
import { Link } from 'react-router';
import { useOtherLanguage } from '../hooks.ts';
import { languageSwitchIcon } from '../../contract/app-icons.ts';
import { Icon } from './icon.tsx';

/**
 * The same page in the other language: the path (and query) is kept. A plain Link: no prefetch. It
 * shows a neutral mark and the language's own name, in that language (`lang`, `hrefLang`).
 */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const other = useOtherLanguage();
  return (
    <Link
      to={other.href}
      className="language-switch"
      hrefLang={other.locale}
      lang={other.locale}
      title={t('language.switchToLabel')}
      data-testid="language-switch"
      onClick={other.remember}
    >
      <Icon name={languageSwitchIcon} />
      <span>{t('language.switchTo')}</span>
    </Link>
  );
}

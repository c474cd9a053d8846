import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { localePath } from '../../lib/locales.ts';
import { useLocale } from '../hooks.ts';
import { navigationIcons } from '../icons.ts';
import { Icon } from './icon.tsx';
import { navigateTo } from '../lib/navigate.ts';

/** Play is an action, not a link: a logged-out visitor logs in first and comes back. */
export function PlayButton({ className = 'button button-play' }: { className?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname, search } = useLocation();
  const play = () => {
    void navigateTo(`${localePath(locale, '/login')}?redirect=${encodeURIComponent(pathname + search)}`);
  };
  return (
    <button type="button" className={className} onClick={play} data-nav="play">
      <Icon name={navigationIcons.play} />
      <span>{t('nav.play')}</span>
    </button>
  );
}

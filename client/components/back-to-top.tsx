import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n.ts';
import { Icon, useIconLoader } from './icon.tsx';

/**
 * Deliberately not in contract/app-icons.ts: the button exists only in the browser, after the reader has
 * scrolled a screen down, so its icon need not ride in every page. It is fetched from
 * `/api/_nuxt_icon/` when the reader starts scrolling, and is usually there before the button shows.
 */
export const backToTopIcon = 'mdi:arrow-up';

/** A "back to top" button, shown once the page is scrolled more than one screen down. */
export function BackToTop() {
  const { t } = useTranslation();
  const loader = useIconLoader();
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const update = () => {
      if (window.scrollY > 0) void loader.load(backToTopIcon);
      setVisible(window.scrollY > window.innerHeight);
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [loader]);

  if (!visible) return null;
  return (
    <button
      type="button"
      className="back-to-top"
      aria-label={t('site.backToTop')}
      title={t('site.backToTop')}
      data-testid="back-to-top"
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    >
      <Icon name={backToTopIcon} size="1.5rem" />
    </button>
  );
}

import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../i18n.ts';
import { Link, Outlet, useLocation } from 'react-router';
import { localePath } from '../../contract/locales.ts';
import { useLocale, useOtherLanguage } from '../hooks.ts';
import { AppLink, AppNavLink } from './app-link.tsx';
import { BackToTop } from './back-to-top.tsx';
import { Icon } from './icon.tsx';
import { DocumentHead } from './document-head.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { AccountNavigation, mainItems, NavigationList } from './navigation-list.tsx';
import { NoticeArea } from './notices.tsx';
import { PlayButton } from './play-button.tsx';
import { VisitorPart } from './visitor-part.tsx';

/** The one default layout: header with the navigation and language switch, main area, footer. */
export function Layout() {
  return (
    <LayoutFrame>
      <DocumentHead />
      <Outlet />
    </LayoutFrame>
  );
}

/**
 * The menu control of narrow screens: a native disclosure, so it opens and closes without
 * JavaScript, by keyboard, and tells screen readers whether it is expanded. The menu itself
 * (`#site-menu`) follows it; the stylesheet hides the menu on narrow screens while the
 * disclosure is closed, and hides the control on wide screens, where the menu is always shown.
 * With JavaScript the menu also closes after a navigation and on Escape.
 */
function MenuToggle() {
  const { t } = useTranslation();
  const details = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();

  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [key]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const element = details.current;
      if (event.key !== 'Escape' || !element?.open) return;
      element.open = false;
      element.querySelector('summary')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <details className="menu-toggle" ref={details}>
      <summary aria-controls="site-menu" data-testid="menu-toggle">
        <Icon name="mdi:menu" />
        <span>{t('site.menu')}</span>
      </summary>
    </details>
  );
}

/** The footer: the rules and the help that every page owes its reader, and the other language. */
function SiteFooter() {
  const { t } = useTranslation();
  const locale = useLocale();
  const other = useOtherLanguage();
  return (
    <footer className="site-footer">
      <nav aria-label={t('site.footerNavigation')}>
        <ul className="footer-links">
          <li>
            <AppLink to={localePath(locale, '/terms-apply')}>{t('nav.terms_apply')}</AppLink>
          </li>
          <li>
            <AppLink to={localePath(locale, '/play-responsibility')}>{t('nav.play_responsibility')}</AppLink>
          </li>
          <li>
            <AppLink to={localePath(locale, '/play-responsibility') + '#' + t('site.helpAnchor')}>
              {t('site.getHelp')}
            </AppLink>
          </li>
          <li>
            <Link
              to={other.href}
              className="language-link"
              hrefLang={other.locale}
              lang={other.locale}
              onClick={other.remember}
            >
              {t('language.switchTo')}
            </Link>
          </li>
        </ul>
      </nav>
      <p>
        {t('site.footerNote')} {t('site.helpLine')}
      </p>
      <p>{t('site.footerRights', { year: 2026 })}</p>
    </footer>
  );
}

export function LayoutFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('site.skipToContent')}
      </a>
      <header className="site-header">
        <div className="header-row">
          <AppNavLink to={localePath(locale, '/')} className="brand" end>
            <span className="brand-name">{t('site.name')}</span>
            <span className="brand-tagline">{t('site.tagline')}</span>
          </AppNavLink>
          <div className="header-actions">
            <LanguageSwitch />
            <PlayButton notify />
            <MenuToggle />
          </div>
        </div>
        {/* In the order it is seen, so Tab follows the eye: on wide screens the account links end
            the brand's row and the sections make the next; on phones both are the menu, in turn. */}
        <div className="site-menu" id="site-menu" data-testid="site-menu">
          <nav aria-label={t('site.accountNavigation')} className="account-nav">
            <VisitorPart name="account-navigation" part={AccountNavigation} />
          </nav>
          <nav aria-label={t('site.mainNavigation')} className="main-nav">
            <NavigationList items={mainItems} />
          </nav>
        </div>
      </header>
      {/* tabIndex -1: the skip link moves focus here, not only the scroll position. */}
      <main id="main" className="site-main" tabIndex={-1}>
        <NoticeArea />
        {children}
      </main>
      <SiteFooter />
      <BackToTop />
    </div>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from '../i18n.ts';
import { Form, Outlet } from 'react-router';
import { localePath } from '../../lib/locales.ts';
import { useLocale, useUser } from '../hooks.ts';
import { navigationIcons } from '../icons.ts';
import { AppNavLink } from './app-link.tsx';
import { BackToTop } from './back-to-top.tsx';
import { Icon } from './icon.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { navigationItems } from './navigation.ts';
import { PlayButton } from './play-button.tsx';

/** The one default layout: header with the navigation and language switch, main area, footer. */
export function Layout() {
  return (
    <LayoutFrame>
      <Outlet />
    </LayoutFrame>
  );
}

export function LayoutFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const user = useUser();
  const mainItems = navigationItems.filter((item) => item.area === 'main');
  const accountItems = navigationItems.filter((item) => item.area === 'account');
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
            <nav aria-label={t('site.accountNavigation')} className="account-nav">
              {user ? (
                <>
                  <span className="signed-in" data-testid="signed-in">
                    {t('account.signedInAs', { name: user.displayName })}
                  </span>
                  <AppNavLink to={localePath(locale, '/account')} data-nav="account">
                    {t('accountPage.link')}
                  </AppNavLink>
                  <Form method="post" action={localePath(locale, '/logout')} className="logout-form">
                    <button type="submit" className="button button-quiet" data-testid="logout">
                      {t('account.logout')}
                    </button>
                  </Form>
                </>
              ) : (
                accountItems.map((item) => (
                  <AppNavLink key={item.key} to={localePath(locale, item.path)} data-nav={item.key}>
                    <Icon name={navigationIcons[item.key]} />
                    <span>{t(`nav.${item.key}`)}</span>
                  </AppNavLink>
                ))
              )}
            </nav>
            <LanguageSwitch />
            <PlayButton />
          </div>
        </div>
        <nav aria-label={t('site.mainNavigation')} className="main-nav">
          {mainItems.map((item) => (
            <AppNavLink key={item.key} to={localePath(locale, item.path)} data-nav={item.key} end={item.path === '/'}>
              <Icon name={navigationIcons[item.key]} />
              <span>{t(`nav.${item.key}`)}</span>
            </AppNavLink>
          ))}
        </nav>
      </header>
      <main id="main" className="site-main">
        {children}
      </main>
      <footer className="site-footer">
        <p>{t('site.footerNote')}</p>
        <p>{t('site.footerRights', { year: 2026 })}</p>
      </footer>
      <BackToTop />
    </div>
  );
}

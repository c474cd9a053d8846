import { Form, useLocation } from 'react-router';
import { navigationIcons } from '../../contract/app-icons.ts';
import { localePath } from '../../contract/locales.ts';
import { navigationItems } from '../../contract/navigation.ts';
import { useLocale, useMatchedPage, useUser } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import { AppNavLink } from './app-link.tsx';
import { Icon } from './icon.tsx';

type PageNavigationItem = Extract<(typeof navigationItems)[number], { path: string }>;

export const mainItems = navigationItems.filter((item) => item.area === 'main');
const accountItems = navigationItems.filter((item) => item.area === 'account');

/**
 * Where Log in and Register come back to: this page with the query it reads (no emailed link's
 * token), not an account form nor home, login's default; on those two, where the visitor was going.
 */
function useWayBack(home: string): string {
  const { pathname, search } = useLocation();
  const page = useMatchedPage();
  const params = new URLSearchParams(search);
  let back: string | null = pathname;
  if (page?.middleware?.includes('guest')) back = params.get('redirect');
  else if (page?.action) back = null;
  else {
    const kept = new URLSearchParams();
    for (const name of page?.query ?? []) if (params.has(name)) kept.set(name, params.get(name)!);
    const query = kept.toString();
    if (query) back += `?${query}`;
  }
  return back && back !== home ? `?redirect=${encodeURIComponent(back)}` : '';
}

/** Navigation items as a list of links, each with its icon and its label (the home link active on the home page only). */
export function NavigationList({ items }: { items: readonly PageNavigationItem[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const wayBack = useWayBack(localePath(locale, '/'));
  return (
    <ul>
      {items.map((item) => (
        <li key={item.key}>
          <AppNavLink
            to={localePath(locale, item.path) + (item.area === 'account' ? wayBack : '')}
            data-nav={item.key}
            end={item.path === '/'}
          >
            <Icon name={navigationIcons[item.key]} />
            <span>{t(`nav.${item.key}`)}</span>
          </AppNavLink>
        </li>
      ))}
    </ul>
  );
}

/** The header's account links: Log in and Register, or who is signed in, Account and Log out (a visitor part). */
export function AccountNavigation() {
  const { t } = useTranslation();
  const locale = useLocale();
  const user = useUser();
  if (!user) return <NavigationList items={accountItems} />;
  return (
    <ul>
      <li className="signed-in" data-testid="signed-in">
        {t('account.signedInAs', { name: user.displayName })}
      </li>
      <li>
        <AppNavLink to={localePath(locale, '/account')} data-nav="account">
          <Icon name="mdi:account-circle" />
          <span>{t('accountPage.link')}</span>
        </AppNavLink>
      </li>
      <li>
        <Form method="post" action={localePath(locale, '/logout')} className="logout-form">
          <button type="submit" className="logout-button" data-testid="logout">
            <Icon name="mdi:logout" />
            <span>{t('account.logout')}</span>
          </button>
        </Form>
      </li>
    </ul>
  );
}

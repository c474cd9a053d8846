import { useTranslation } from '../i18n.ts';
import { Form, redirect, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../contract/locales.ts';
import { api } from '../lib/api.ts';
import { setFlash } from '../lib/flash.ts';
import { setCurrentUser } from '../lib/user-cache.ts';

/** With JavaScript: revoke the session through the API. Logging out never fails for the visitor. */
export async function clientAction({ request }: ActionFunctionArgs) {
  await api('/auth/logout', { method: 'POST' }).catch(() => undefined);
  await setCurrentUser(null);
  setFlash('signedOut');
  return redirect(localePath(splitLocale(new URL(request.url).pathname).locale, '/'));
}

/** `/logout` opened directly: a confirmation, since logging out is a POST. */
export default function LogoutPage() {
  const { t } = useTranslation();
  return (
    <section className="page form-page">
      <h1>{t('account.logout')}</h1>
      <Form method="post" className="account-form">
        <p>{t('account.logoutConfirm')}</p>
        <button type="submit" className="button button-primary">
          {t('account.logout')}
        </button>
      </Form>
    </section>
  );
}

import { redirect, useSearchParams, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../contract/locales.ts';
import { loginPath } from '../../contract/login-path.ts';
import { AccountForm, EmailField, useAccountForm } from '../components/account-form.tsx';
import { AppLink } from '../components/app-link.tsx';
import { useLocale } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import { api } from '../lib/api.ts';
import { formStateFromError } from '../lib/form-state.ts';
import { formText } from '../lib/form-text.ts';

/** With JavaScript: ask the API for a link; the answer is the same whether the address is known or not. */
export async function clientAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const email = formText(form, 'email');
  try {
    await api('/auth/password-reset', { method: 'POST', body: { email } });
    return redirect(`${localePath(splitLocale(url.pathname).locale, '/forgot-password')}?sent=1`);
  } catch (error) {
    return formStateFromError(error, { email });
  }
}

/** `/forgot-password`: an email address in, a link out (if an account uses it). */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [search] = useSearchParams();
  const { state, busy } = useAccountForm();
  if (search.get('sent') === '1') {
    return (
      <section className="page form-page">
        <h1>{t('passwordReset.sentHeading')}</h1>
        <div className="form-notice" role="status" data-testid="reset-sent">
          <p>{t('passwordReset.sentText')}</p>
          <p>{t('passwordReset.sentHint')}</p>
        </div>
        <p className="form-switch">
          <AppLink to={localePath(locale, loginPath)}>{t('passwordReset.backToLogin')}</AppLink>
          {' · '}
          <AppLink to={localePath(locale, '/forgot-password')}>{t('passwordReset.askAgain')}</AppLink>
        </p>
      </section>
    );
  }
  return (
    <section className="page form-page">
      <h1>{t('pageTitles.forgot-password')}</h1>
      <p className="lead">{t('passwordReset.forgotLead')}</p>
      <AccountForm busy={busy} message={state?.message} submitLabel={t('passwordReset.sendLink')}>
        <EmailField state={state} />
      </AccountForm>
      <p className="form-switch">
        {t('passwordReset.remembered')} <AppLink to={localePath(locale, loginPath)}>{t('nav.login')}</AppLink>
      </p>
    </section>
  );
}

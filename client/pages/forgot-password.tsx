import { useSearchParams } from 'react-router';
import { localePath } from '../../contract/locales.ts';
import { loginPath } from '../../contract/login-path.ts';
import { AccountForm, EmailField, useAccountForm } from '../components/account-form.tsx';
import { AppLink } from '../components/app-link.tsx';
import { useLocale } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import type { EmptyFormErrors } from '../../contract/required-fields.ts';

/** `/forgot-password`: an email address in, a link out (if an account uses it). */
/** What the server answers to the empty form; the browser answers it at once. */
export const emptyFormErrors: EmptyFormErrors = { '': { email: 'required' } };

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

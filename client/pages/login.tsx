import { useTranslation } from '../i18n.ts';
import { localePath } from '../../contract/locales.ts';
import { AccountFormPage, EmailField, useAccountForm } from '../components/account-form.tsx';
import { AppLink } from '../components/app-link.tsx';
import { FormField } from '../components/form-field.tsx';
import { useLocale } from '../hooks.ts';
import type { EmptyFormErrors } from '../../contract/required-fields.ts';

/** What the server answers to the empty form; the browser answers it at once. */
export const emptyFormErrors: EmptyFormErrors = { '': { email: 'required', password: 'required' } };

export default function LoginPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { state, busy, passwordRef } = useAccountForm();
  return (
    <AccountFormPage
      page="login"
      busy={busy}
      state={state}
      labels={{ email: t('form.email'), password: t('form.password') }}
    >
      <EmailField state={state} />
      <FormField
        name="password"
        type="password"
        ref={passwordRef}
        label={t('form.password')}
        autoComplete="current-password"
        error={state?.errors.password}
      />
      <p className="field-hint">
        <AppLink to={localePath(locale, '/forgot-password')} data-testid="forgot-password">
          {t('passwordReset.forgotLink')}
        </AppLink>
      </p>
    </AccountFormPage>
  );
}

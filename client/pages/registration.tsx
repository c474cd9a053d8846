import { useTranslation } from '../i18n.ts';
import { localePath } from '../../contract/locales.ts';
import { AccountFormPage, EmailField, NewPasswordField, useAccountForm } from '../components/account-form.tsx';
import { AppLink } from '../components/app-link.tsx';
import { FormField } from '../components/form-field.tsx';
import { useLocale } from '../hooks.ts';
import type { EmptyFormErrors } from '../../contract/required-fields.ts';

/** What the server answers to the empty form; the browser answers it at once. */
export const emptyFormErrors: EmptyFormErrors = {
  '': {
    email: 'required',
    displayName: 'required',
    password: 'required',
    acceptTerms: 'must_accept',
    confirmAge: 'must_accept',
  },
};

export default function RegistrationPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { state, busy, passwordRef } = useAccountForm();
  return (
    <AccountFormPage
      page="registration"
      busy={busy}
      state={state}
      labels={{
        email: t('form.email'),
        displayName: t('form.displayName'),
        password: t('form.password'),
        acceptTerms: t('form.acceptTerms'),
        confirmAge: t('form.confirmAge'),
      }}
    >
      <EmailField state={state} />
      <FormField
        name="displayName"
        label={t('form.displayName')}
        autoComplete="nickname"
        maxLength={50}
        defaultValue={state?.values.displayName ?? ''}
        error={state?.errors.displayName}
      />
      <NewPasswordField label={t('form.password')} state={state} ref={passwordRef} />
      <FormField name="acceptTerms" type="checkbox" label={t('form.acceptTerms')} error={state?.errors.acceptTerms} />
      <FormField name="confirmAge" type="checkbox" label={t('form.confirmAge')} error={state?.errors.confirmAge} />
      <p className="field-hint">
        <AppLink to={localePath(locale, '/terms-apply')}>{t('nav.terms_apply')}</AppLink>
        {' · '}
        <AppLink to={localePath(locale, '/play-responsibility')}>{t('nav.play_responsibility')}</AppLink>
      </p>
    </AccountFormPage>
  );
}

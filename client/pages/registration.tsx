import { useTranslation } from '../i18n.ts';
import { redirect, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { AccountFormPage, EmailField, NewPasswordField, useAccountForm } from '../components/account-form.tsx';
import { AppLink } from '../components/app-link.tsx';
import { FormField } from '../components/form-field.tsx';
import { useLocale } from '../hooks.ts';
import { api } from '../lib/api.ts';
import { formStateFromError } from '../lib/form-state.ts';
import { setFlash } from '../lib/flash.ts';
import { setCurrentUser } from '../lib/user-cache.ts';
import { formText } from '../lib/form-text.ts';

/** With JavaScript: create the account through the API (which logs the new player in). */
export async function clientAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const { locale } = splitLocale(url.pathname);
  const form = await request.formData();
  const values = { email: formText(form, 'email'), displayName: formText(form, 'displayName') };
  try {
    // The redirect guard is navigation code (vite.config.ts): loaded by now, or with the first submit.
    const { safeRedirectPath } = await import('../router/navigation.ts');
    const { user } = await api<{ user: PublicUser }>('/auth/register', {
      method: 'POST',
      body: {
        ...values,
        password: formText(form, 'password'),
        locale,
        acceptTerms: form.get('acceptTerms') === 'on',
        confirmAge: form.get('confirmAge') === 'on',
      },
    });
    await setCurrentUser(user);
    setFlash('registered');
    return redirect(safeRedirectPath(url.searchParams.get('redirect'), localePath(locale, '/')));
  } catch (error) {
    return formStateFromError(error, values);
  }
}

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

import { useTranslation } from '../i18n.ts';
import { redirect, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { AccountFormPage, EmailField, useAccountForm } from '../components/account-form.tsx';
import { AppLink } from '../components/app-link.tsx';
import { FormField } from '../components/form-field.tsx';
import { useLocale } from '../hooks.ts';
import { api } from '../lib/api.ts';
import { formStateFromError } from '../lib/form-state.ts';
import { setFlash } from '../lib/flash.ts';
import { setCurrentUser } from '../lib/user-cache.ts';
import { formText } from '../lib/form-text.ts';

/** With JavaScript: log in through the API, then go where the visitor was heading. */
export async function clientAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const email = formText(form, 'email');
  try {
    // The redirect guard is navigation code (vite.config.ts): loaded by now, or with the first submit.
    const { safeRedirectPath } = await import('../router/navigation.ts');
    const { user } = await api<{ user: PublicUser }>('/auth/login', {
      method: 'POST',
      body: { email, password: formText(form, 'password') },
    });
    await setCurrentUser(user);
    setFlash('signedIn');
    return redirect(
      safeRedirectPath(url.searchParams.get('redirect'), localePath(splitLocale(url.pathname).locale, '/')),
    );
  } catch (error) {
    return formStateFromError(error, { email });
  }
}

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

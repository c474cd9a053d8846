import { useTranslation } from '../i18n.ts';
import { Form, redirect, useActionData, useNavigation, useSearchParams, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../lib/locales.ts';
import type { FormState, PublicUser } from '../../lib/page-data.ts';
import { AppLink } from '../components/app-link.tsx';
import { FormField, FormMessage, useClearedAfterSubmit } from '../components/form-field.tsx';
import { useLocale } from '../hooks.ts';
import { api } from '../lib/api-client.ts';
import { formStateFromError } from '../lib/form-state.ts';
import { safeRedirectPath } from '../lib/navigation-guard.ts';
import { session } from '../lib/session.ts';

/** With JavaScript: log in through the API, then go where the visitor was heading. */
export async function clientAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const email = String(form.get('email') ?? '');
  try {
    const { user } = await api<{ user: PublicUser }>('/auth/login', {
      method: 'POST',
      body: { email, password: String(form.get('password') ?? '') },
    });
    session.set(user);
    return redirect(safeRedirectPath(url.searchParams.get('redirect'), localePath(splitLocale(url.pathname).locale, '/')));
  } catch (error) {
    return formStateFromError(error, { email });
  }
}

export default function LoginPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const state = useActionData() as FormState | undefined;
  const busy = useNavigation().state === 'submitting';
  const passwordRef = useClearedAfterSubmit(state);
  const [search] = useSearchParams();
  const redirectTo = search.get('redirect');
  return (
    <section className="page form-page">
      <h1>{t('nav.login')}</h1>
      <p className="lead">{t('form.loginLead')}</p>
      <Form method="post" noValidate className="account-form" aria-busy={busy}>
        <FormMessage code={state?.message} />
        <FormField
          name="email"
          type="email"
          label={t('form.email')}
          autoComplete="email"
          defaultValue={state?.values.email ?? ''}
          error={state?.errors.email}
        />
        <FormField
          name="password"
          type="password"
          ref={passwordRef}
          label={t('form.password')}
          autoComplete="current-password"
          error={state?.errors.password}
        />
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('form.submitLogin')}
        </button>
      </Form>
      <p className="form-switch">
        {t('form.noAccount')}{' '}
        <AppLink to={`${localePath(locale, '/registration')}${redirectTo ? `?redirect=${encodeURIComponent(redirectTo)}` : ''}`}>
          {t('nav.registration')}
        </AppLink>
      </p>
    </section>
  );
}

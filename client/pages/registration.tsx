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

/** With JavaScript: create the account through the API (which logs the new player in). */
export async function clientAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const { locale } = splitLocale(url.pathname);
  const form = await request.formData();
  const values = { email: String(form.get('email') ?? ''), displayName: String(form.get('displayName') ?? '') };
  try {
    const { user } = await api<{ user: PublicUser }>('/auth/register', {
      method: 'POST',
      body: {
        ...values,
        password: String(form.get('password') ?? ''),
        locale,
        acceptTerms: form.get('acceptTerms') === 'on',
        confirmAge: form.get('confirmAge') === 'on',
      },
    });
    session.set(user);
    return redirect(safeRedirectPath(url.searchParams.get('redirect'), localePath(locale, '/')));
  } catch (error) {
    return formStateFromError(error, values);
  }
}

export default function RegistrationPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const state = useActionData() as FormState | undefined;
  const busy = useNavigation().state === 'submitting';
  const passwordRef = useClearedAfterSubmit(state);
  const [search] = useSearchParams();
  const redirectTo = search.get('redirect');
  return (
    <section className="page form-page">
      <h1>{t('nav.registration')}</h1>
      <p className="lead">{t('form.registrationLead')}</p>
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
          name="displayName"
          label={t('form.displayName')}
          autoComplete="nickname"
          maxLength={50}
          defaultValue={state?.values.displayName ?? ''}
          error={state?.errors.displayName}
        />
        <FormField
          name="password"
          type="password"
          ref={passwordRef}
          label={t('form.password')}
          hint={t('form.passwordHint')}
          autoComplete="new-password"
          error={state?.errors.password}
        />
        <FormField name="acceptTerms" type="checkbox" label={t('form.acceptTerms')} error={state?.errors.acceptTerms} />
        <FormField name="confirmAge" type="checkbox" label={t('form.confirmAge')} error={state?.errors.confirmAge} />
        <p className="field-hint">
          <AppLink to={localePath(locale, '/terms-apply')}>{t('nav.terms_apply')}</AppLink>
          {' · '}
          <AppLink to={localePath(locale, '/play-responsibility')}>{t('nav.play_responsibility')}</AppLink>
        </p>
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('form.submitRegistration')}
        </button>
      </Form>
      <p className="form-switch">
        {t('form.haveAccount')}{' '}
        <AppLink to={`${localePath(locale, '/login')}${redirectTo ? `?redirect=${encodeURIComponent(redirectTo)}` : ''}`}>
          {t('nav.login')}
        </AppLink>
      </p>
    </section>
  );
}

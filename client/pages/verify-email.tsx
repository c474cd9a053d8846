import { redirect, useSearchParams, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../contract/locales.ts';
import { loginPath } from '../../contract/login-path.ts';
import { AccountForm, useAccountForm } from '../components/account-form.tsx';
import { AppLink } from '../components/app-link.tsx';
import { LinkProblem, linkProblemOf, tokenProblemFromError } from '../components/link-problem.tsx';
import { useLocale, useUser } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import { api } from '../lib/api.ts';
import { formStateFromError } from '../lib/form-state.ts';
import { clearPayloadCache } from '../router/payload.ts';

/** With JavaScript: the link is used through the API. */
export async function clientAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  try {
    await api('/auth/verify-email', { method: 'POST', body: { token: String(form.get('token') ?? '') } });
    clearPayloadCache();
    return redirect(`${localePath(splitLocale(url.pathname).locale, '/verify-email')}?done=1`);
  } catch (error) {
    const problem = tokenProblemFromError(error);
    if (problem) return redirect(`${url.pathname}?problem=${problem}`);
    return formStateFromError(error, {});
  }
}

/**
 * `/verify-email?token=...`: the link from the verification email. Opening it changes nothing
 * (mail scanners open links too); the button does.
 */
export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const user = useUser();
  const [search] = useSearchParams();
  const { state, busy } = useAccountForm();
  const token = search.get('token');
  const problem = linkProblemOf(search);
  if (search.get('done') === '1') {
    return (
      <section className="page form-page">
        <h1>{t('verifyEmail.doneHeading')}</h1>
        <p className="form-notice" role="status" data-testid="email-verified">
          {t('verifyEmail.doneText')}
        </p>
        <p>
          <AppLink to={localePath(locale, user ? '/account' : loginPath)} className="button button-primary">
            {user ? t('verifyEmail.toAccount') : t('nav.login')}
          </AppLink>
        </p>
      </section>
    );
  }
  if (problem || !token) return <LinkProblem kind="verifyEmail" problem={problem ?? 'invalid'} />;
  return (
    <section className="page form-page">
      <h1>{t('pageTitles.verify-email')}</h1>
      <p className="lead">{t('verifyEmail.lead')}</p>
      <AccountForm busy={busy} message={state?.message} submitLabel={t('verifyEmail.submit')} testId="verify-email-form">
        <input type="hidden" name="token" value={token} />
      </AccountForm>
    </section>
  );
}

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
    await api('/auth/email-change/confirm', { method: 'POST', body: { token: String(form.get('token') ?? '') } });
    clearPayloadCache();
    return redirect(`${localePath(splitLocale(url.pathname).locale, '/confirm-email')}?done=1`);
  } catch (error) {
    const problem = tokenProblemFromError(error);
    if (problem) return redirect(`${url.pathname}?problem=${problem}`);
    return formStateFromError(error, {});
  }
}

/**
 * `/confirm-email?token=...`: the link sent to a new address. The account moves to it only when
 * the button is pressed (opening the link changes nothing).
 */
export default function ConfirmEmailPage() {
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
        <h1>{t('confirmEmail.doneHeading')}</h1>
        <p className="form-notice" role="status" data-testid="email-changed">
          {t('confirmEmail.doneText')}
        </p>
        <p>
          <AppLink to={localePath(locale, user ? '/account' : loginPath)} className="button button-primary">
            {user ? t('verifyEmail.toAccount') : t('nav.login')}
          </AppLink>
        </p>
      </section>
    );
  }
  if (problem || !token) return <LinkProblem kind="confirmEmail" problem={problem ?? 'invalid'} />;
  return (
    <section className="page form-page">
      <h1>{t('pageTitles.confirm-email')}</h1>
      <p className="lead">{t('confirmEmail.lead')}</p>
      <AccountForm busy={busy} message={state?.message} submitLabel={t('confirmEmail.submit')} testId="confirm-email-form">
        <input type="hidden" name="token" value={token} />
      </AccountForm>
    </section>
  );
}

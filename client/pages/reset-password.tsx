import { redirect, useSearchParams, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { AccountForm, NewPasswordField, useAccountForm } from '../components/account-form.tsx';
import { LinkProblem, linkProblemOf, tokenProblemFromError } from '../components/link-problem.tsx';
import { useTranslation } from '../i18n.ts';
import { api } from '../lib/api.ts';
import { formStateFromError } from '../lib/form-state.ts';
import { setCurrentUser } from '../lib/user-cache.ts';
import { formText } from '../lib/form-text.ts';

/** With JavaScript: the new password through the API, which logs the visitor in (as login does). */
export async function clientAction({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const { locale } = splitLocale(url.pathname);
  const form = await request.formData();
  const token = formText(form, 'token');
  try {
    const { user } = await api<{ user: PublicUser }>('/auth/password-reset/confirm', {
      method: 'POST',
      body: { token, password: formText(form, 'password') },
    });
    await setCurrentUser(user);
    return redirect(`${localePath(locale, '/account')}?done=password-reset`);
  } catch (error) {
    const problem = tokenProblemFromError(error);
    if (problem) return redirect(`${url.pathname}?problem=${problem}`);
    return formStateFromError(error, {});
  }
}

/**
 * `/reset-password?token=...`: the link from the email. The server has checked the token before
 * this renders (plugins/account-links.ts); a link that cannot be used arrives as `?problem=`.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { state, busy, passwordRef } = useAccountForm();
  const token = search.get('token');
  const problem = linkProblemOf(search);
  if (problem || !token) return <LinkProblem kind="passwordReset" problem={problem ?? 'invalid'} />;
  return (
    <section className="page form-page">
      <h1>{t('pageTitles.reset-password')}</h1>
      <p className="lead">{t('passwordReset.resetLead')}</p>
      <AccountForm busy={busy} message={state?.message} submitLabel={t('passwordReset.setPassword')}>
        <input type="hidden" name="token" value={token} />
        <NewPasswordField label={t('form.newPassword')} state={state} ref={passwordRef} />
      </AccountForm>
    </section>
  );
}

import { useSearchParams } from 'react-router';
import { AccountForm, NewPasswordField, useAccountForm } from '../components/account-form.tsx';
import { LinkProblem, linkProblemOf } from '../components/link-problem.tsx';
import { useTranslation } from '../i18n.ts';

/**
 * `/reset-password?token=...`: the link from the email. The server has checked the token before
 * this renders (plugins/app/account-links.ts); a link that cannot be used arrives as `?problem=`.
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

import { useSearchParams } from 'react-router';
import { localePath } from '../../contract/locales.ts';
import { loginPath } from '../../contract/login-path.ts';
import { useLocale, useUser } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import { AccountForm, useAccountForm } from './account-form.tsx';
import { AppLink } from './app-link.tsx';
import { LinkProblem, linkProblemOf } from './link-problem.tsx';

/**
 * The two pages an emailed link opens (`/verify-email?token=...`, `/confirm-email?token=...`):
 * opening the link changes nothing (mail scanners open links too); the button uses the token.
 * They differ only in their address and their words; the button posts the token to the page.
 */
export interface EmailedLink {
  /** The page's own path (contract/routes.ts). */
  page: '/verify-email' | '/confirm-email';
  /** The strings' namespace (locales/*.json) and LinkProblem's kind. */
  kind: 'verifyEmail' | 'confirmEmail';
  /** `data-testid` of the notice shown once the link was used. */
  doneTestId: string;
}

export function EmailedLinkPage({ page, kind, doneTestId }: EmailedLink) {
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
        <h1>{t(`${kind}.doneHeading`)}</h1>
        <p className="form-notice" role="status" data-testid={doneTestId}>
          {t(`${kind}.doneText`)}
        </p>
        <p>
          <AppLink to={localePath(locale, user ? '/account' : loginPath)} className="button button-primary">
            {user ? t('verifyEmail.toAccount') : t('nav.login')}
          </AppLink>
        </p>
      </section>
    );
  }
  if (problem || !token) return <LinkProblem kind={kind} problem={problem ?? 'invalid'} />;
  return (
    <section className="page form-page">
      <h1>{t(`pageTitles.${page.slice(1) as 'verify-email' | 'confirm-email'}`)}</h1>
      <p className="lead">{t(`${kind}.lead`)}</p>
      <AccountForm
        busy={busy}
        message={state?.message}
        submitLabel={t(`${kind}.submit`)}
        testId={`${page.slice(1)}-form`}
      >
        <input type="hidden" name="token" value={token} />
      </AccountForm>
    </section>
  );
}

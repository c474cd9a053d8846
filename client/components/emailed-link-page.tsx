import { redirect, useSearchParams, type ActionFunctionArgs } from 'react-router';
import { localePath, splitLocale } from '../../contract/locales.ts';
import { loginPath } from '../../contract/login-path.ts';
import { useLocale, useUser } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import { api } from '../lib/api.ts';
import { formStateFromError } from '../lib/form-state.ts';
import { clearPayloadCache } from '../router/payload.ts';
import { AccountForm, useAccountForm } from './account-form.tsx';
import { AppLink } from './app-link.tsx';
import { LinkProblem, linkProblemOf, tokenProblemFromError } from './link-problem.tsx';
import { formText } from '../lib/form-text.ts';
import { revalidateCurrentUser } from '../lib/user-cache.ts';

/**
 * The two pages an emailed link opens (`/verify-email?token=...`, `/confirm-email?token=...`):
 * opening the link changes nothing (mail scanners open links too); the button uses the token.
 * They differ only in the API they call, their address and their words.
 */
export interface EmailedLink {
  /** The API that uses the token (POST `{ token }`). */
  apiPath: '/auth/verify-email' | '/auth/email-change/confirm';
  /** The page's own path (contract/routes.ts). */
  page: '/verify-email' | '/confirm-email';
  /** The strings' namespace (locales/*.json) and LinkProblem's kind. */
  kind: 'verifyEmail' | 'confirmEmail';
  /** `data-testid` of the notice shown once the link was used. */
  doneTestId: string;
}

/** With JavaScript: the link is used through the API, then the page says so (`?done=1`). */
export function emailedLinkAction({ apiPath, page }: EmailedLink) {
  return async ({ request }: ActionFunctionArgs) => {
    const url = new URL(request.url);
    const form = await request.formData();
    try {
      await api(apiPath, { method: 'POST', body: { token: formText(form, 'token') } });
      clearPayloadCache();
      void revalidateCurrentUser();
      return redirect(`${localePath(splitLocale(url.pathname).locale, page)}?done=1`);
    } catch (error) {
      const problem = tokenProblemFromError(error);
      if (problem) return redirect(`${url.pathname}?problem=${problem}`);
      return formStateFromError(error, {});
    }
  };
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

import { Form, useActionData, useNavigation } from 'react-router';
import type { AccountSettingsData } from '../../lib/auth/account-view.ts';
import type { PublicUser } from '../../lib/page-data.ts';
import { useTranslation } from '../i18n.ts';
import { formStateFor } from '../lib/account-actions.ts';
import { FormMessage } from './form-field.tsx';

/** The account's address and whether it is verified, with a way to get a new link. */
export function EmailStatus({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  const state = formStateFor(useActionData(), 'resendVerification');
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="email-status" data-testid="email-status" data-verified={user.emailVerified}>
      <FormMessage code={state?.message} />
      <p>
        <span className="email-address">{user.email}</span>{' '}
        <span className={`badge ${user.emailVerified ? 'badge-ok' : 'badge-warn'}`}>
          {user.emailVerified ? t('accountSettings.verified') : t('accountSettings.notVerified')}
        </span>
      </p>
      {user.emailVerified ? null : (
        <Form method="post" className="inline-form" aria-busy={busy} data-testid="resend-verification">
          <p className="field-hint">{t('accountSettings.notVerifiedHint')}</p>
          <input type="hidden" name="intent" value="resendVerification" />
          <button type="submit" className="button button-quiet" disabled={busy}>
            {t('accountSettings.resend')}
          </button>
        </Form>
      )}
    </div>
  );
}

/** "Your details": the address (and its verification), then the forms that change the account. */
export function AccountDetails({ user }: { user: PublicUser; data: AccountSettingsData }) {
  const { t } = useTranslation();
  return (
    <section className="account-details" aria-labelledby="account-details-title">
      <h2 id="account-details-title" className="section-title">
        {t('accountSettings.detailsHeading')}
      </h2>
      <EmailStatus user={user} />
    </section>
  );
}

import { Form, useActionData, useNavigation } from 'react-router';
import type { AccountSettingsData, SessionView } from '../../contract/account-view.ts';
import { locales } from '../../contract/locales.ts';
import type { FormState, PublicUser } from '../../contract/page-data.ts';
import { useTranslation } from '../i18n.ts';
import { formStateFor } from '../lib/intent-state.ts';
import { AccountDisclosure } from './account-disclosure.tsx';
import { AccountForm } from './account-form.tsx';
import { FormField, FormMessage, useClearedAfterSubmit } from './form-field.tsx';
import { LocalDateTime } from './local-time.tsx';

/** The last submission of one of the account page's forms, and whether that form is being sent. */
export function useIntentForm(intent: string): { state: FormState | undefined; busy: boolean } {
  const state = formStateFor(useActionData(), intent);
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  return { state, busy };
}

/** The account's address and whether it is verified, with a way to get a new link. */
function EmailStatus({ user, pendingEmail }: { user: PublicUser; pendingEmail: string | null }) {
  const { t } = useTranslation();
  const { state, busy } = useIntentForm('resendVerification');
  return (
    <div className="email-status" data-testid="email-status" data-verified={user.emailVerified}>
      <FormMessage code={state?.message} />
      <p>
        <span className="email-address" data-testid="account-email">
          {user.email}
        </span>{' '}
        <span className={`badge ${user.emailVerified ? 'badge-ok' : 'badge-warn'}`}>
          {user.emailVerified ? t('accountSettings.verified') : t('accountSettings.notVerified')}
        </span>
      </p>
      {pendingEmail ? (
        <p className="field-hint" data-testid="pending-email">
          {t('accountSettings.pendingEmail', { email: pendingEmail })}
        </p>
      ) : null}
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

function ProfileForm({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  const { state, busy } = useIntentForm('profile');
  const labels = { displayName: t('form.displayName'), locale: t('accountSettings.language') };
  const chosen = state?.values.locale ?? user.locale;
  return (
    <AccountDisclosure
      title={t('accountSettings.profileHeading')}
      value={`${user.displayName} · ${t(`accountPage.languages.${user.locale}`)}`}
      open={Boolean(state)}
      testId="profile-disclosure"
    >
      <AccountForm
        scope="profile"
        busy={busy}
        message={state?.message}
        errors={state?.errors}
        labels={labels}
        submitLabel={t('accountSettings.saveProfile')}
        testId="profile-form"
      >
        <FormField
          scope="profile"
          name="displayName"
          label={labels.displayName}
          autoComplete="nickname"
          maxLength={50}
          defaultValue={state?.values.displayName ?? user.displayName}
          error={state?.errors.displayName}
        />
        <fieldset className="field" aria-describedby="profile-locale-hint">
          <legend>{labels.locale}</legend>
          {locales.map((value) => (
            <label key={value} className="period-choice">
              <input type="radio" name="locale" value={value} defaultChecked={chosen === value} />{' '}
              {t(`accountPage.languages.${value}`)}
            </label>
          ))}
          <p className="field-hint" id="profile-locale-hint">
            {t('accountSettings.languageHint')}
          </p>
        </fieldset>
      </AccountForm>
    </AccountDisclosure>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const { state, busy } = useIntentForm('password');
  const currentRef = useClearedAfterSubmit(state);
  const newRef = useClearedAfterSubmit(state);
  const labels = { currentPassword: t('accountSettings.currentPassword'), newPassword: t('form.newPassword') };
  return (
    <AccountDisclosure
      title={t('accountSettings.passwordHeading')}
      value={t('accountSettings.passwordLead')}
      open={Boolean(state)}
      testId="password-disclosure"
    >
      <AccountForm
        scope="password"
        busy={busy}
        message={state?.message}
        errors={state?.errors}
        labels={labels}
        submitLabel={t('accountSettings.changePassword')}
        testId="password-form"
      >
        <FormField
          scope="password"
          name="currentPassword"
          type="password"
          ref={currentRef}
          label={labels.currentPassword}
          autoComplete="current-password"
          error={state?.errors.currentPassword}
        />
        <FormField
          scope="password"
          name="newPassword"
          type="password"
          ref={newRef}
          label={labels.newPassword}
          hint={t('form.passwordHint')}
          autoComplete="new-password"
          error={state?.errors.newPassword}
        />
      </AccountForm>
    </AccountDisclosure>
  );
}

function EmailForm() {
  const { t } = useTranslation();
  const { state, busy } = useIntentForm('email');
  const passwordRef = useClearedAfterSubmit(state);
  const labels = { newEmail: t('accountSettings.newEmail'), currentPassword: t('accountSettings.currentPassword') };
  return (
    <AccountDisclosure title={t('accountSettings.emailHeading')} open={Boolean(state)} testId="email-disclosure">
      <AccountForm
        scope="email"
        busy={busy}
        message={state?.message}
        errors={state?.errors}
        labels={labels}
        submitLabel={t('accountSettings.changeEmail')}
        testId="email-form"
      >
        <p className="field-hint">{t('accountSettings.emailLead')}</p>
        <FormField
          scope="email"
          name="newEmail"
          type="email"
          label={labels.newEmail}
          autoComplete="email"
          defaultValue={state?.values.newEmail ?? ''}
          error={state?.errors.newEmail}
        />
        <FormField
          scope="email"
          name="currentPassword"
          type="password"
          ref={passwordRef}
          label={labels.currentPassword}
          autoComplete="current-password"
          error={state?.errors.currentPassword}
        />
      </AccountForm>
    </AccountDisclosure>
  );
}

/** Who is signed in, said once: the name, the address and its state, and the page's sections. */
export function AccountSummary({ user, data }: { user: PublicUser; data: AccountSettingsData }) {
  const { t } = useTranslation();
  const sections = [
    ['account-details', t('accountSettings.detailsHeading')],
    ['take-a-break', t('accountPage.breakHeading')],
    ['play-sessions', t('accountPage.sessionsHeading')],
    ['login-sessions', t('accountSettings.sessionsHeading')],
    ['delete-account', t('accountSettings.deleteHeading')],
  ] as const;
  return (
    <aside className="account-summary" aria-label={t('accountPage.summaryLabel')} data-testid="account-summary">
      <p className="account-name" data-testid="account-user">
        {user.displayName}
      </p>
      <EmailStatus user={user} pendingEmail={data.accountSettings.pendingEmail} />
      <nav aria-label={t('content.onThisPage')} className="account-toc">
        <ul>
          {sections.map(([id, label]) => (
            <li key={id}>
              <a href={`#${id}`}>{label}</a>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}

/** "Your details": the forms that change the account's name, language, address and password. */
export function AccountDetails({ user }: { user: PublicUser }) {
  const { t } = useTranslation();
  return (
    <section className="account-section account-details" id="account-details" aria-labelledby="account-details-title">
      <h2 id="account-details-title" className="section-title">
        {t('accountSettings.detailsHeading')}
      </h2>
      <div className="account-forms">
        <ProfileForm user={user} />
        <EmailForm />
        <PasswordForm />
      </div>
    </section>
  );
}

/** Where the account is logged in: each device in words, first and last seen, this one marked. */
export function LoginSessions({ sessions }: { sessions: SessionView[] }) {
  const { t } = useTranslation();
  const { state, busy } = useIntentForm('endSession');
  const others = useIntentForm('endOtherSessions');
  const otherCount = sessions.filter((session) => !session.current).length;
  return (
    <section className="account-section login-sessions" id="login-sessions" aria-labelledby="login-sessions-title">
      <h2 id="login-sessions-title" className="section-title">
        {t('accountSettings.sessionsHeading')}
      </h2>
      <FormMessage code={state?.message ?? others.state?.message} />
      <ul className="session-list" data-testid="login-sessions">
        {sessions.map((session) => (
          <li key={session.id} className="session-item" data-testid="login-session" data-current={session.current}>
            <div>
              <strong>{session.device}</strong>
              {session.current ? <span className="badge badge-ok">{t('accountSettings.thisDevice')}</span> : null}
              <p className="field-hint session-times">
                <span>
                  {t('accountSettings.firstSeen')} <LocalDateTime iso={session.createdAt} />
                </span>
                <span>
                  {t('accountSettings.lastSeen')} <LocalDateTime iso={session.lastSeenAt} />
                </span>
              </p>
            </div>
            {session.current ? null : (
              <Form method="post" aria-busy={busy}>
                <input type="hidden" name="intent" value="endSession" />
                <input type="hidden" name="sessionId" value={session.id} />
                <button type="submit" className="button button-quiet" disabled={busy} data-testid="end-session">
                  {t('accountSettings.endSession')}
                  <span className="visually-hidden"> {session.device}</span>
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {otherCount > 0 ? (
        <Form method="post" aria-busy={others.busy}>
          <input type="hidden" name="intent" value="endOtherSessions" />
          <button type="submit" className="button button-quiet" disabled={others.busy} data-testid="end-other-sessions">
            {t('accountSettings.endOtherSessions')}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

import { useTranslation } from '../i18n.ts';
import { Form, useActionData, useLocation, useNavigation, useSearchParams } from 'react-router';
import { localePath } from '../../contract/locales.ts';
import { isSelfExclusionPeriod, selfExclusionPeriods, type AccountPageData } from '../../contract/play.ts';
import { AccountDetails, AccountSummary, LoginSessions } from '../components/account-details.tsx';
import { DeleteAccount } from '../components/delete-account.tsx';
import { AppLink } from '../components/app-link.tsx';
import { LocalDateTime } from '../components/local-time.tsx';
import { useLivePageData, useLocale, useUser } from '../hooks.ts';
import { formStateFor } from '../lib/intent-state.ts';
import type { loader } from './account.server.ts';
import type { EmptyFormErrors } from '../../contract/required-fields.ts';

/** `/account`: the account's details, "take a break" (self-exclusion), play and login sessions, deletion. */
/** What the server answers to the empty form; the browser answers it at once. */
export const emptyFormErrors: EmptyFormErrors = {
  email: { newEmail: 'required', currentPassword: 'required' },
  password: { currentPassword: 'required', newPassword: 'required' },
  deleteAccount: { password: 'required' },
};

export default function AccountPage() {
  const { t } = useTranslation();
  const user = useUser();
  const data = useLivePageData<typeof loader>();
  return (
    <div className="page account-page">
      <h1>{t('accountPage.title')}</h1>
      <DoneNotice />
      <div className="account-layout">
        {user ? <AccountSummary user={user} data={data} /> : null}
        <div className="account-sections">
          {user ? <AccountDetails user={user} /> : null}
          <TakeABreak selfExclusion={data.selfExclusion} />
          <PlaySessions sessions={data.playSessions} />
          <LoginSessions sessions={data.accountSettings.sessions} />
          <DeleteAccount />
        </div>
      </div>
    </div>
  );
}

/** What the last change did (`?done=password-reset` ...), said once at the top of the page. */
function DoneNotice() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const done = search.get('done');
  if (!done || !/^[a-z-]{1,40}$/.test(done)) return null;
  const text = t(`accountPage.done.${done}`, { defaultValue: '' });
  if (!text) return null;
  return (
    <p className="form-notice" role="status" data-testid="account-done">
      {text}
    </p>
  );
}

function TakeABreak({ selfExclusion }: { selfExclusion: AccountPageData['selfExclusion'] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { pathname } = useLocation();
  const state = formStateFor(useActionData(), 'selfExclusion');
  const busy = useNavigation().state === 'submitting';
  const confirming = state?.values.step === 'confirm' && isSelfExclusionPeriod(state.values.period);
  const period = state?.values.period;
  return (
    <section className="account-section take-a-break" id="take-a-break" aria-labelledby="take-a-break-title">
      <h2 id="take-a-break-title" className="section-title">
        {t('accountPage.breakHeading')}
      </h2>
      {selfExclusion ? (
        <p className="break-status" role="status" data-testid="break-status">
          {t('accountPage.onBreak')} <LocalDateTime iso={selfExclusion.until} testId="break-until" />.{' '}
          {t('accountPage.onBreakFinal')}
        </p>
      ) : (
        <p>{t('accountPage.breakIntro')}</p>
      )}
      {confirming ? (
        <Form method="post" className="account-form break-confirm" aria-busy={busy} data-testid="break-confirm">
          <p className="break-warning">
            <strong>{t('accountPage.confirmHeading', { period: t(`accountPage.periods.${period}`) })}</strong>
          </p>
          <p>{t('accountPage.confirmText')}</p>
          <input type="hidden" name="period" value={period} />
          <input type="hidden" name="step" value="confirm" />
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={busy} data-testid="break-confirm-submit">
              {t('accountPage.confirmSubmit')}
            </button>
            <AppLink to={pathname} className="button button-quiet" data-testid="break-cancel">
              {t('accountPage.cancel')}
            </AppLink>
          </div>
        </Form>
      ) : (
        <Form method="post" className="account-form break-form" aria-busy={busy} data-testid="break-form">
          {state?.message ? (
            <p className="form-message" role="alert" data-testid="form-message">
              {t(`accountPage.messages.${state.message}`, { defaultValue: t('accountPage.messages.UNKNOWN') })}
            </p>
          ) : null}
          <fieldset aria-describedby={state?.errors.period ? 'break-period-error' : undefined}>
            <legend>{selfExclusion ? t('accountPage.extendLegend') : t('accountPage.periodLegend')}</legend>
            {selfExclusionPeriods.map((value) => (
              <label key={value} className="period-choice">
                <input type="radio" name="period" value={value} defaultChecked={period === value} required />{' '}
                {t(`accountPage.periods.${value}`)}
              </label>
            ))}
          </fieldset>
          {state?.errors.period ? (
            <p className="field-error" id="break-period-error" data-field-error="period">
              {t('accountPage.choosePeriod')}
            </p>
          ) : null}
          <p className="field-hint">{t('accountPage.cannotUndo')}</p>
          <input type="hidden" name="step" value="review" />
          <button type="submit" className="button button-primary" disabled={busy} data-testid="break-continue">
            {t('accountPage.continue')}
          </button>
        </Form>
      )}
      <p>
        <AppLink to={localePath(locale, '/play-responsibility')}>{t('play.responsible.readMore')}</AppLink>
      </p>
    </section>
  );
}

function PlaySessions({ sessions }: { sessions: AccountPageData['playSessions'] }) {
  const { t } = useTranslation();
  return (
    <section className="account-section play-sessions" id="play-sessions" aria-labelledby="play-sessions-title">
      <h2 id="play-sessions-title" className="section-title">
        {t('accountPage.sessionsHeading')}
      </h2>
      {sessions.length === 0 ? (
        <p data-testid="no-play-sessions">{t('accountPage.noSessions')}</p>
      ) : (
        <table className="sessions-table" data-testid="play-sessions">
          <caption className="visually-hidden">{t('accountPage.sessionsCaption', { count: sessions.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('accountPage.started')}</th>
              <th scope="col">{t('accountPage.language')}</th>
              <th scope="col">{t('accountPage.device')}</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <td>
                  <LocalDateTime iso={session.startedAt} />
                </td>
                <td>{t(`accountPage.languages.${session.locale}`)}</td>
                <td className="device" data-testid="play-session-device">
                  {session.device}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

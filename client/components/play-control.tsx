import { useTranslation } from '../i18n.ts';
import { localePath } from '../../contract/locales.ts';
import { useLocale } from '../hooks.ts';
import { AppLink } from './app-link.tsx';
import { SessionReminder } from './session-reminder.tsx';

/**
 * "Play responsibly", beside Play: the session reminder (its form once a session runs, what it will
 * do before), taking a break, and the responsible-play guide. Only tools the product has.
 */
export function StayInControl({ session }: { session?: { id: string; startedAt: string } }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <aside className="play-control" aria-labelledby="play-control-title" data-testid="play-control">
      <h2 id="play-control-title" className="section-title">
        {t('play.responsibleHeading')}
      </h2>
      <section className="play-control-part" aria-labelledby="play-reminder-title">
        <h3 id="play-reminder-title">{t('play.reminder.label')}</h3>
        {session ? (
          <SessionReminder sessionId={session.id} startedAt={session.startedAt} />
        ) : (
          <p data-testid="reminder-later">{t('play.control.reminderLater')}</p>
        )}
      </section>
      <section className="play-control-part" aria-labelledby="play-break-title">
        <h3 id="play-break-title">{t('accountPage.breakHeading')}</h3>
        <p>{t('accountPage.breakIntro')}</p>
        <AppLink
          to={`${localePath(locale, '/account')}#take-a-break`}
          className="button button-quiet"
          data-testid="take-a-break-link"
        >
          {t('play.responsible.breakAccountLink')}
        </AppLink>
      </section>
      <section className="play-control-part">
        <ul>
          <li>{t('play.responsible.budget')}</li>
          <li>{t('play.responsible.breaks')}</li>
        </ul>
        <AppLink to={localePath(locale, '/play-responsibility')} data-testid="responsibility-link">
          {t('play.responsible.readMore')}
        </AppLink>
      </section>
    </aside>
  );
}

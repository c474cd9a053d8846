import { useTranslation } from '../i18n.ts';
import { localePath } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { useLocale } from '../hooks.ts';
import { AppLink } from './app-link.tsx';
import { LocalDateTime } from './local-time.tsx';

export interface LaunchedSession {
  id: string;
  startedAt: string;
  /** Named by the server; unknown for a session this tab verified before the page's data has it. */
  device?: string;
}

/** What was launched and where it leads: the player, the start, the device, the destination. */
export function SessionCard({
  session,
  user,
  destination,
}: {
  session: LaunchedSession;
  user: PublicUser;
  destination: string | null;
}) {
  const { t } = useTranslation();
  return (
    <section
      className="play-card play-session"
      aria-labelledby="play-session-title"
      data-testid="play-session"
      data-session-id={session.id}
    >
      <div className="play-card-head">
        <h2 id="play-session-title" className="section-title">
          {t('play.session.title')}
        </h2>
        <span className="badge badge-ok play-live" data-testid="play-state">
          {t('play.session.state')}
        </span>
      </div>
      <dl className="play-facts">
        <div>
          <dt>{t('play.playingAs')}</dt>
          <dd>
            <strong data-testid="play-user">{user.displayName}</strong>
          </dd>
        </div>
        <div>
          <dt>{t('play.since')}</dt>
          <dd>
            <LocalDateTime iso={session.startedAt} testId="play-since" />
          </dd>
        </div>
        {session.device ? (
          <div>
            <dt>{t('accountPage.device')}</dt>
            <dd data-testid="play-device">{session.device}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('play.session.destination')}</dt>
          <dd data-testid="play-destination">{destination ?? t('play.session.ownDestination')}</dd>
        </div>
      </dl>
    </section>
  );
}

/** The player's latest sessions under Play (the newest three), and the way to all of them. */
export function RecentSessions({ sessions }: { sessions: readonly LaunchedSession[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (sessions.length === 0) return null;
  return (
    <section className="play-card play-recent" aria-labelledby="play-recent-title" data-testid="play-recent">
      <h2 id="play-recent-title" className="section-title">
        {t('accountPage.sessionsHeading')}
      </h2>
      <ul className="play-recent-list">
        {sessions.slice(0, 3).map((session) => (
          <li key={session.id}>
            <LocalDateTime iso={session.startedAt} />
            {session.device ? <span className="field-hint">{session.device}</span> : null}
          </li>
        ))}
      </ul>
      <AppLink to={`${localePath(locale, '/account')}#play-sessions`}>{t('play.next.account')}</AppLink>
    </section>
  );
}

/** After the launch: where to go from here. */
export function NextSteps() {
  const { t } = useTranslation();
  const locale = useLocale();
  const links = [
    { to: localePath(locale, '/asdas'), label: t('play.next.articles'), testId: 'next-articles' },
    { to: localePath(locale, '/account'), label: t('play.next.account'), testId: 'next-account' },
    { to: localePath(locale, '/'), label: t('play.next.home'), testId: 'next-home' },
  ];
  return (
    <nav className="play-next" aria-labelledby="play-next-title" data-testid="play-next">
      <h2 id="play-next-title" className="section-title">
        {t('play.next.heading')}
      </h2>
      <ul>
        {links.map((link) => (
          <li key={link.testId}>
            <AppLink to={link.to} className="button button-quiet" data-testid={link.testId}>
              {link.label}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../i18n.ts';
import { useActionData, useLocation, useSearchParams } from 'react-router';
import type { FormState } from '../../contract/page-data.ts';
import { localePath } from '../../contract/locales.ts';
import { AppLink } from '../components/app-link.tsx';
import { LocalDateTime } from '../components/local-time.tsx';
import { PlayButton } from '../components/play-button.tsx';
import { PlayOutcomeMessage } from '../components/play-outcome.tsx';
import { SessionReminder } from '../components/session-reminder.tsx';
import { useLocale, usePageData, useUser } from '../hooks.ts';
import { navigateTo } from '../lib/navigate.ts';
import { launchProblemOf, startPlay, verifiedSession, verifyLaunch, type PlayOutcome } from '../lib/play.ts';
import { rememberPlayIntent, takePlayIntent } from '../lib/play-intent.ts';
import { readReminderChoice, reminderParam, reminderStore } from '../lib/play-reminder.ts';
import { launchProblemCodes, type LaunchProblem } from '../../contract/play.ts';

/** Play started from this page, by history entry: StrictMode's second effect and a remount reuse it. */
const started = new Map<string, Promise<PlayOutcome>>();

/**
 * The site's own play destination (docs/play.md). `?launch=` opened as a document is spent by the
 * server (plugins/play.ts); reached by client navigation, the browser verifies it and replaces
 * the address the same way, with `?session=` or `?problem=`.
 */
export default function PlayPage() {
  const [search] = useSearchParams();
  const launch = search.get('launch');
  const session = search.get('session');
  const problem = search.get('problem');
  if (launch) return <LaunchedSession token={launch} />;
  if (session) return <PlaySession id={session} />;
  if (problem)
    return (
      <LaunchFailed
        code={Object.hasOwn(launchProblemCodes, problem) ? launchProblemCodes[problem as LaunchProblem] : 'UNKNOWN'}
      />
    );
  return <StartPlay />;
}

/** Play pressed without JavaScript and refused (a break, an unverified address). */
function useRefusal(): PlayOutcome | null {
  const state = useActionData<FormState>();
  const until = state?.values.until;
  if (state?.message === 'PLAY_SELF_EXCLUDED' && until) return { kind: 'self-excluded', until };
  return state?.message ? { kind: 'failed', code: state.message } : null;
}

// A layout effect in the browser (no flash of the idle page before "Starting"); nothing on the server.
const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

function StartPlay() {
  const { t } = useTranslation();
  const locale = useLocale();
  const user = useUser();
  const { key } = useLocation();
  const refusal = useRefusal();
  // A visit shows the page and its Play button (rendered by the server, it works without JavaScript);
  // only the arrival from "Play, then log in" presses it for the player (play-intent.ts).
  const [outcome, setOutcome] = useState<PlayOutcome | 'starting' | 'idle'>(refusal ?? 'idle');
  const startedHere = useRef<string | null>(null);

  useBrowserLayoutEffect(() => {
    if (!user || refusal) return undefined;
    let live = true;
    let run = started.get(key);
    if (run && startedHere.current !== key) {
      // Back on an entry that already pressed Play: offer it again rather than press it for them.
      setOutcome('idle');
      return undefined;
    }
    if (!run) {
      if (!takePlayIntent()) return undefined;
      run = startPlay(locale);
      started.set(key, run);
      startedHere.current = key;
    }
    setOutcome('starting');
    void run.then((result) => {
      if (!live) return;
      if (result.kind === 'login') {
        rememberPlayIntent();
        void navigateTo(result.to, { replace: true });
      } else if (result.kind !== 'navigated') setOutcome(result);
    });
    return () => {
      live = false;
    };
  }, [key, locale, user, refusal?.kind]);

  const busy = outcome === 'starting' && user !== null;
  return (
    <section className="page play-page" aria-busy={busy || undefined}>
      <h1>{t('nav.play')}</h1>
      {busy ? (
        <p className="lead" data-testid="play-status">
          {t('play.starting')}
        </p>
      ) : (
        <>
          <p className="lead" data-testid="play-intro">
            {t('play.intro')}
          </p>
          {typeof outcome === 'object' ? <PlayOutcomeMessage outcome={outcome} /> : null}
          <div className="play-again">
            <PlayButton testId="play-again" />
          </div>
        </>
      )}
      <ResponsiblePlay />
    </section>
  );
}

function LaunchedSession({ token }: { token: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setFailure(null);
    // Once per token, however often this runs (StrictMode, remounts): the token is single-use.
    void verifyLaunch(token).then((result) => {
      if (!live) return;
      const problem = result.kind === 'failed' ? launchProblemOf(result.code) : null;
      // Spent (or refused for good): the address names the session, or the problem, instead.
      if (result.kind === 'verified')
        void navigateTo(sessionAddress(pathname, result.launch.session.id), { replace: true });
      else if (problem) void navigateTo(`${pathname}?problem=${problem}`, { replace: true });
      // Not spent (network, rate limit): the token stays, so trying again is a reload.
      else setFailure(result.code);
    });
    return () => {
      live = false;
    };
  }, [token, pathname]);

  if (failure) return <LaunchFailed code={failure} />;
  return (
    <section className="page play-page" aria-busy="true">
      <h1>{t('nav.play')}</h1>
      <p className="lead" data-testid="play-status">
        {t('play.verifying')}
      </p>
      <ResponsiblePlay />
    </section>
  );
}

/** `/play?session=<id>`, with the reminder this browser remembers (`&remind=30`), if any. */
function sessionAddress(pathname: string, id: string): string {
  const query = new URLSearchParams({ session: id });
  const remembered = readReminderChoice(reminderStore());
  if (remembered !== 0) query.set(reminderParam, String(remembered));
  return `${pathname}?${query}`;
}

function LaunchFailed({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <PlayAgainPage>
      <p className="play-message" role="alert" data-testid="launch-error" data-code={code}>
        {t(`play.launchErrors.${code}`, { defaultValue: t('play.errors.UNKNOWN') })}
      </p>
    </PlayAgainPage>
  );
}

/** The play page with a message instead of a session (`children`: why), and Play again. */
function PlayAgainPage({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="page play-page">
      <h1>{t('nav.play')}</h1>
      {children}
      <div className="play-again">
        <PlayButton testId="play-again" />
      </div>
      <ResponsiblePlay />
    </section>
  );
}

/** A verified play session: from the page's data, or from this tab's verification until the data has it. */
function PlaySession({ id }: { id: string }) {
  const { t } = useTranslation();
  const user = useUser();
  const data = usePageData('play');
  const startedAt =
    data?.playSessions.find((session) => session.id === id)?.startedAt ?? verifiedSession(id)?.session.startedAt;
  if (!startedAt || !user) {
    return (
      <PlayAgainPage>
        <p className="play-message" data-testid="play-session-unknown">
          {t('play.sessionUnknown')}
        </p>
      </PlayAgainPage>
    );
  }
  return (
    <section className="page play-page">
      <h1>{t('play.sessionHeading')}</h1>
      <div className="play-session" data-testid="play-session" data-session-id={id}>
        <p className="lead">
          {t('play.playingAs')} <strong data-testid="play-user">{user.displayName}</strong>
        </p>
        <p>
          {t('play.since')} <LocalDateTime iso={startedAt} testId="play-since" />
        </p>
        <SessionReminder sessionId={id} startedAt={startedAt} />
      </div>
      <NextSteps />
      <ResponsiblePlay />
    </section>
  );
}

/** After the launch: where to go from here. */
function NextSteps() {
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

function ResponsiblePlay() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <aside className="responsible-play" aria-labelledby="responsible-play-title">
      <h2 id="responsible-play-title" className="section-title">
        {t('play.responsibleHeading')}
      </h2>
      <ul>
        <li>{t('play.responsible.budget')}</li>
        <li>{t('play.responsible.breaks')}</li>
        <li>
          {t('play.responsible.breakAccount')}{' '}
          <AppLink to={`${localePath(locale, '/account')}#take-a-break`} data-testid="take-a-break-link">
            {t('play.responsible.breakAccountLink')}
          </AppLink>
        </li>
        <li>
          <AppLink to={localePath(locale, '/play-responsibility')} data-testid="responsibility-link">
            {t('play.responsible.readMore')}
          </AppLink>
        </li>
      </ul>
    </aside>
  );
}

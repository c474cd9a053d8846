import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { translations, useTranslation } from '../i18n.ts';
import en from '../../locales/en.json?play';
import th from '../../locales/th.json?play';
import { useActionData, useLocation, useSearchParams } from 'react-router';
import type { FormState } from '../../contract/page-data.ts';
import { StayInControl } from '../components/play-control.tsx';
import { LaunchCard } from '../components/play-launch.tsx';
import { PlayOutcomeMessage } from '../components/play-outcome.tsx';
import { NextSteps, RecentSessions, SessionCard } from '../components/play-session.tsx';
import { useLocale, usePageData, useUser } from '../hooks.ts';
import { navigateTo } from '../lib/navigate.ts';
import { launchProblemOf, startPlay, verifiedSession, verifyLaunch, type PlayOutcome } from '../lib/play.ts';
import { rememberPlayIntent, takePlayIntent } from '../lib/play-intent.ts';
import { readReminderChoice, reminderParam, reminderStore } from '../lib/play-reminder.ts';
import { launchProblemCodes, type LaunchProblem } from '../../contract/play.ts';
import type { loader } from './play.server.ts';

// The strings only this page shows come with its code, in every language (vite.config.ts).
translations.add('en', en);
translations.add('th', th);

/** Play started from this page, by history entry: StrictMode's second effect and a remount reuse it. */
const started = new Map<string, Promise<PlayOutcome>>();

/**
 * The site's own play destination (docs/play.md). `?launch=` opened as a document is spent by the
 * server (plugins/app/play.ts); reached by client navigation, the browser verifies it and replaces
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
  const data = usePageData<typeof loader>();
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
    <PlayLayout heading={t('nav.play')} busy={busy}>
      <LaunchCard
        destination={data?.destination ?? null}
        playerName={user?.displayName}
        status={
          busy ? (
            <p className="play-status" data-testid="play-status">
              {t('play.starting')}
            </p>
          ) : undefined
        }
      >
        {typeof outcome === 'object' ? <PlayOutcomeMessage outcome={outcome} /> : null}
      </LaunchCard>
      <RecentSessions sessions={data?.playSessions ?? []} />
    </PlayLayout>
  );
}

/** Every state of the page: its heading and lead over the main column, "Play responsibly" beside it. */
function PlayLayout({
  heading,
  withoutIntro = false,
  busy = false,
  session,
  children,
}: {
  heading: string;
  /** The session says what it is by itself: no intro over it. */
  withoutIntro?: boolean;
  busy?: boolean;
  session?: { id: string; startedAt: string };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section className="page play-page" aria-busy={busy || undefined}>
      <header className="play-head">
        <h1>{heading}</h1>
        {withoutIntro ? null : (
          <p className="lead" data-testid="play-intro">
            {t('play.intro')}
          </p>
        )}
      </header>
      <div className="play-main">{children}</div>
      <StayInControl session={session} />
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
    <PlayLayout heading={t('nav.play')} busy>
      <p className="play-card play-status" data-testid="play-status">
        {t('play.verifying')}
      </p>
    </PlayLayout>
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
  const user = useUser();
  const data = usePageData<typeof loader>();
  return (
    <PlayLayout heading={t('nav.play')}>
      {children}
      <LaunchCard destination={data?.destination ?? null} playerName={user?.displayName} />
    </PlayLayout>
  );
}

/** A verified play session: from the page's data, or from this tab's verification until the data has it. */
function PlaySession({ id }: { id: string }) {
  const { t } = useTranslation();
  const user = useUser();
  const data = usePageData<typeof loader>();
  const known = data?.playSessions.find((session) => session.id === id);
  const startedAt = known?.startedAt ?? verifiedSession(id)?.session.startedAt;
  if (!startedAt || !user) {
    return (
      <PlayAgainPage>
        <p className="play-message" data-testid="play-session-unknown">
          {t('play.sessionUnknown')}
        </p>
      </PlayAgainPage>
    );
  }
  const session = { id, startedAt, ...(known ? { device: known.device } : {}) };
  return (
    <PlayLayout heading={t('play.sessionHeading')} withoutIntro session={session}>
      <SessionCard session={session} user={user} destination={data?.destination ?? null} />
      <NextSteps />
    </PlayLayout>
  );
}

import { useState } from 'react';
import { loadAccountStrings, useTranslation } from '../i18n.ts';
import { localePath } from '../../contract/locales.ts';
import { useLocale, useUser } from '../hooks.ts';
import { navigationIcons } from '../../contract/app-icons.ts';
import { navigateTo } from '../lib/navigate.ts';
import { loginForPlay } from '../../contract/login-path.ts';
import type { PlayOutcome } from '../lib/play.ts';
import { AppLink } from './app-link.tsx';
import { Icon } from './icon.tsx';
import { LocalDateTime } from './local-time.tsx';
import { useShowNotice } from './notices.tsx';

/**
 * Play is an action, not a link: a form posted to `/play` (`/th/play`), so it works without
 * JavaScript too (the server's `play` form action: logged out, to login and back; logged in, the
 * launch redirect; on a break, the translated refusal). With JavaScript the form is handled here
 * instead: logged out, log in and continue to Play; logged in, `POST /api/play`, then to the
 * launch URL only if its origin is allowed. When nothing moves, the reason is shown beside the
 * button, or, for the header's button (`notify`), as a notice at the top of the page.
 */
export function PlayButton({
  className = 'button button-play',
  testId,
  notify = false,
}: {
  className?: string;
  testId?: string;
  notify?: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const user = useUser();
  const showNotice = useShowNotice();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<PlayOutcome | null>(null);

  const report = (result: PlayOutcome | null) => {
    if (!notify) setOutcome(result);
    else if (result)
      showNotice({
        tone: 'error',
        content: <PlayOutcomeText outcome={result} />,
        testId: 'play-message',
        kind: result.kind,
      });
  };

  const play = async () => {
    if (!user) {
      void navigateTo(loginForPlay(locale));
      return;
    }
    setBusy(true);
    report(null);
    // The play client (client/lib/play.ts) is loaded with the first Play, as the API client is, and
    // with it the account strings, which hold what Play says when it goes nowhere (client/i18n.ts).
    const [result]: [PlayOutcome, unknown] = await Promise.all([
      import('../lib/play.ts').then(
        ({ startPlay }) => startPlay(locale),
        (): PlayOutcome => ({ kind: 'failed', code: 'NETWORK' }),
      ),
      // Without them the message would show its keys; Play itself goes on.
      loadAccountStrings(locale).catch(() => undefined),
    ]);
    setBusy(false);
    if (result.kind === 'login') void navigateTo(result.to);
    else if (result.kind !== 'navigated') report(result);
  };

  return (
    <form
      method="post"
      action={localePath(locale, '/play')}
      className="play-action"
      onSubmit={(event) => {
        event.preventDefault();
        void play();
      }}
    >
      <button
        type="submit"
        className={className}
        disabled={busy}
        aria-busy={busy || undefined}
        data-nav={testId ? undefined : 'play'}
        data-testid={testId}
      >
        <Icon name={navigationIcons.play} />
        <span>{t('nav.play')}</span>
      </button>
      {notify ? null : <PlayOutcomeMessage outcome={outcome} />}
    </form>
  );
}

/** Why Play went nowhere, translated: a break (with its end), a refused destination, an error. */
function PlayOutcomeText({ outcome }: { outcome: PlayOutcome }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (outcome.kind === 'self-excluded') {
    return (
      <>
        {t('play.selfExcluded')} <LocalDateTime iso={outcome.until} testId="play-excluded-until" />.{' '}
        <AppLink to={localePath(locale, '/play-responsibility')}>{t('play.getHelp')}</AppLink>
      </>
    );
  }
  if (outcome.kind === 'refused') return <>{t('play.destinationRefused')}</>;
  if (outcome.kind === 'failed' && outcome.code === 'EMAIL_NOT_VERIFIED') {
    return (
      <>
        {t('play.errors.EMAIL_NOT_VERIFIED')}{' '}
        <AppLink to={localePath(locale, '/account')}>{t('play.verifyLink')}</AppLink>
      </>
    );
  }
  if (outcome.kind === 'failed')
    return <>{t(`play.errors.${outcome.code}`, { defaultValue: t('play.errors.UNKNOWN') })}</>;
  return null;
}

/** The same, as a message beside a Play button in the page. */
export function PlayOutcomeMessage({ outcome }: { outcome: PlayOutcome | null }) {
  if (!outcome || outcome.kind === 'navigated' || outcome.kind === 'login') return null;
  return (
    <p className="play-message" role="alert" data-testid="play-message" data-kind={outcome.kind}>
      <PlayOutcomeText outcome={outcome} />
    </p>
  );
}

/** A Play call to action for the end of a page (home, articles): the same action as the header's. */
export function PlayCallToAction() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <aside className="play-cta" aria-labelledby="play-cta-title" data-testid="play-cta">
      <div>
        <h2 id="play-cta-title" className="section-title">
          {t('play.ctaHeading')}
        </h2>
        <p>
          {t('play.ctaText')}{' '}
          <AppLink to={localePath(locale, '/play-responsibility')}>{t('play.ctaResponsible')}</AppLink>
        </p>
      </div>
      <PlayButton testId="play-cta-button" />
    </aside>
  );
}

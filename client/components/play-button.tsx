import { useState } from 'react';
import { useTranslation } from '../i18n.ts';
import { localePath } from '../../lib/locales.ts';
import { useLocale, useUser } from '../hooks.ts';
import { navigationIcons } from '../icons.ts';
import { navigateTo } from '../lib/navigate.ts';
import { loginForPlay, startPlay, type PlayOutcome } from '../lib/play.ts';
import { AppLink } from './app-link.tsx';
import { Icon } from './icon.tsx';
import { LocalDateTime } from './local-time.tsx';

/**
 * Play is an action, not a link. Logged out: log in, then continue to Play (`/play`). Logged in:
 * `POST /api/play`, then to the launch URL, only if its origin is allowed; otherwise, or during
 * a self-exclusion break, a message says why and nothing moves.
 */
export function PlayButton({ className = 'button button-play', testId }: { className?: string; testId?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const user = useUser();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<PlayOutcome | null>(null);

  const play = async () => {
    if (!user) {
      void navigateTo(loginForPlay(locale));
      return;
    }
    setBusy(true);
    setOutcome(null);
    const result = await startPlay(locale);
    setBusy(false);
    if (result.kind === 'login') void navigateTo(result.to);
    else if (result.kind !== 'navigated') setOutcome(result);
  };

  return (
    <span className="play-action">
      <button
        type="button"
        className={className}
        onClick={() => void play()}
        disabled={busy}
        aria-busy={busy || undefined}
        data-nav={testId ? undefined : 'play'}
        data-testid={testId}
      >
        <Icon name={navigationIcons.play} />
        <span>{t('nav.play')}</span>
      </button>
      <PlayOutcomeMessage outcome={outcome} />
    </span>
  );
}

/** Why Play went nowhere, translated: a break (with its end), a refused destination, an error. */
export function PlayOutcomeMessage({ outcome }: { outcome: PlayOutcome | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!outcome || outcome.kind === 'navigated' || outcome.kind === 'login') return null;
  if (outcome.kind === 'self-excluded') {
    return (
      <span className="play-message" role="alert" data-testid="play-message" data-kind="self-excluded">
        {t('play.selfExcluded')} <LocalDateTime iso={outcome.until} testId="play-excluded-until" />.{' '}
        <AppLink to={localePath(locale, '/play-responsibility')}>{t('play.getHelp')}</AppLink>
      </span>
    );
  }
  return (
    <span className="play-message" role="alert" data-testid="play-message" data-kind={outcome.kind}>
      {outcome.kind === 'refused'
        ? t('play.destinationRefused')
        : t(`play.errors.${outcome.code}`, { defaultValue: t('play.errors.UNKNOWN') })}
    </span>
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

import type { ReactNode } from 'react';
import { loadAccountStrings, useTranslation } from '../i18n.ts';
import { localePath, type Locale } from '../../contract/locales.ts';
import { loginForPlay } from '../../contract/login-path.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { useLocale } from '../hooks.ts';
import { navigateTo } from '../lib/navigate.ts';
import type { PlayOutcome } from '../lib/play.ts';
import { rememberPlayIntent } from '../lib/play-intent.ts';
import { AppLink } from './app-link.tsx';
import { LocalDateTime } from './local-time.tsx';
import { PlayMessage } from './play-message.tsx';

// What a Play button does when pressed, and what it says when Play goes nowhere: loaded with the
// first Play (vite.config.ts, `onDemandCode`), as the play client and the API client are.

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
    <PlayMessage kind={outcome.kind}>
      <PlayOutcomeText outcome={outcome} />
    </PlayMessage>
  );
}

export interface PlayPress {
  user: PublicUser | null;
  locale: Locale;
  setBusy: (busy: boolean) => void;
  /** Shows why Play went nowhere (`null` clears it): beside the button, or as the page's notice. */
  report: (outcome: PlayOutcome | null, text: ReactNode) => void;
}

/**
 * Logged out: log in and continue to Play (the `/play` page presses it once, play-intent.ts). Logged in: `POST /api/play`, then to the launch URL only
 * if its origin is allowed; when nothing moves, the reason is reported.
 */
export async function pressPlay({ user, locale, setBusy, report }: PlayPress): Promise<void> {
  if (!user) {
    rememberPlayIntent();
    void navigateTo(loginForPlay(locale));
    return;
  }
  setBusy(true);
  report(null, null);
  // The account strings hold what Play says when it goes nowhere (client/i18n.ts).
  const [result]: [PlayOutcome, unknown] = await Promise.all([
    import('../lib/play.ts').then(
      ({ startPlay }) => startPlay(locale),
      (): PlayOutcome => ({ kind: 'failed', code: 'NETWORK' }),
    ),
    // Without them the message would show its keys; Play itself goes on.
    loadAccountStrings(locale).catch(() => undefined),
  ]);
  setBusy(false);
  if (result.kind === 'login') {
    rememberPlayIntent();
    void navigateTo(result.to);
  } else if (result.kind !== 'navigated') report(result, <PlayOutcomeText outcome={result} />);
}

import { useState, type ReactNode } from 'react';
import { useTranslation } from '../i18n.ts';
import { localePath } from '../../contract/locales.ts';
import { useLocale, useUser } from '../hooks.ts';
import { navigationIcons } from '../../contract/app-icons.ts';
import type { PlayOutcome } from '../lib/play.ts';
import { AppLink } from './app-link.tsx';
import { Icon } from './icon.tsx';
import { useShowNotice } from './notices.tsx';
import { PlayMessage } from './play-message.tsx';

/**
 * Play is an action, not a link: a form posted to `/play` (`/th/play`), so it works without
 * JavaScript too (the server's `play` form action: logged out, to login and back; logged in, the
 * launch redirect; on a break, the translated refusal). With JavaScript the form is handled in the
 * browser instead (play-outcome.tsx, loaded when pressed). When nothing moves, the reason is shown
 * beside the button, or, for the header's button (`notify`), as a notice at the top of the page.
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
  const [message, setMessage] = useState<ReactNode>(null);

  const report = (outcome: PlayOutcome | null, text: ReactNode) => {
    if (!notify) setMessage(outcome && <PlayMessage kind={outcome.kind}>{text}</PlayMessage>);
    else if (outcome) showNotice({ tone: 'error', content: text, testId: 'play-message', kind: outcome.kind });
  };

  const play = () =>
    import('./play-outcome.tsx').then(
      ({ pressPlay }) => pressPlay({ user, locale, setBusy, report }),
      // Its code did not load: said as the play client's own failure would be.
      () => report({ kind: 'failed', code: 'NETWORK' }, t('play.errors.NETWORK')),
    );

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
      {notify ? null : message}
    </form>
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

import type { ReactNode } from 'react';
import { useTranslation } from '../i18n.ts';
import { PlayButton } from './play-button.tsx';

/**
 * The page's main action: what pressing Play does, step by step (where it leads included), then
 * the button. `status` replaces the button while Play is starting; `children`: why it went nowhere.
 */
export function LaunchCard({
  destination,
  playerName,
  status,
  children,
}: {
  destination: string | null;
  playerName: string | undefined;
  status?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const steps = [
    t('play.launch.stepStart'),
    destination ? t('play.launch.stepGoTo', { destination }) : t('play.launch.stepGoOwn'),
    t('play.launch.stepOnce'),
  ];
  return (
    <section className="play-card play-launch" aria-labelledby="play-launch-title" data-testid="play-launch">
      <h2 id="play-launch-title" className="section-title">
        {t('play.launch.heading')}
      </h2>
      <ol className="play-steps">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <div className="play-launch-action">
        {status ?? <PlayButton className="button button-play button-large" testId="play-again" />}
        {playerName ? (
          <p className="play-as">
            {t('play.playingAs')} <strong>{playerName}</strong>
          </p>
        ) : null}
      </div>
      {children}
    </section>
  );
}

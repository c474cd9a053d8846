import { useEffect, useId, useState } from 'react';
import { Form, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from '../i18n.ts';
import {
  defaultReminder,
  minuteMs,
  minutesPlayed,
  nextReminderDelay,
  parseReminderChoice,
  readReminderChoice,
  reminderChoices,
  reminderParam,
  reminderStore,
  saveReminderChoice,
  scheduleReminders,
  type ReminderChoice,
} from '../lib/play-reminder.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * "Remind me every 30 / 60 minutes / off": a GET form, so the choice is in the address and works
 * without JavaScript (a `<noscript>` refresh); with it, a timer shows a notice (not a dialog: play
 * is not interrupted) and the browser remembers the choice. `minute`: injectable for tests.
 */
export function SessionReminder({
  sessionId,
  startedAt,
  minute = minuteMs,
}: {
  sessionId: string;
  startedAt: string;
  minute?: number;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const asked = search.get(reminderParam);
  // The address decides; without a choice in it, the one this browser remembers (read after hydration:
  // the server cannot know it).
  const [remembered, setRemembered] = useState<ReminderChoice>(defaultReminder);
  useEffect(() => setRemembered(readReminderChoice(reminderStore())), []);
  const choice = asked === null ? remembered : parseReminderChoice(asked);
  const [notice, setNotice] = useState<number | null>(null);
  const started = Date.parse(startedAt);
  useEffect(() => {
    setNotice(null);
    if (Number.isNaN(started)) return undefined;
    return scheduleReminders({ startedAt: started, everyMinutes: choice, minute, onDue: setNotice });
  }, [choice, started, minute]);

  return (
    <div className="session-reminder">
      <Form
        method="get"
        action={pathname}
        replace
        preventScrollReset
        className="reminder-form"
        data-testid="reminder-form"
        onSubmit={(event) => {
          const select = event.currentTarget.elements.namedItem(reminderParam) as HTMLSelectElement | null;
          saveReminderChoice(reminderStore(), parseReminderChoice(select?.value));
        }}
      >
        <input type="hidden" name="session" value={sessionId} />
        <label htmlFor={id}>{t('play.reminder.choose')}</label>
        <div className="reminder-controls">
          {/* Keyed by the choice: a remembered one read after hydration replaces the server's default. */}
          <select
            key={choice}
            id={id}
            name={reminderParam}
            defaultValue={String(choice)}
            className="select"
            data-testid="reminder-choice"
          >
            {reminderChoices.map((minutes) => (
              <option key={minutes} value={String(minutes)}>
                {minutes === 0 ? t('play.reminder.off') : t('play.reminder.every', { count: minutes })}
              </option>
            ))}
          </select>
          <button type="submit" className="button button-quiet" data-testid="reminder-save">
            {t('play.reminder.save')}
          </button>
        </div>
      </Form>
      <div role="status" aria-live="polite">
        <p className="field-hint" data-testid="reminder-status" data-minutes={choice}>
          {choice === 0 ? t('play.reminder.statusOff') : t('play.reminder.status', { count: choice })}
        </p>
        {notice !== null ? (
          <p className="reminder-notice" data-testid="reminder-notice">
            {t('play.reminder.notice', { count: notice })}{' '}
            <button type="button" className="button button-quiet" onClick={() => setNotice(null)}>
              {t('play.reminder.dismiss')}
            </button>
          </p>
        ) : null}
      </div>
      {choice > 0 && !Number.isNaN(started) ? (
        <WithoutJavaScript startedAt={started} everyMinutes={choice} minute={minute} />
      ) : null}
    </div>
  );
}

/**
 * The reminder without JavaScript: a refresh when the next is due (a second late) and the notice.
 * Written as HTML, not elements: with JavaScript it stays inert text, so no refresh ever runs.
 */
function WithoutJavaScript({
  startedAt,
  everyMinutes,
  minute,
}: {
  startedAt: number;
  everyMinutes: number;
  minute: number;
}) {
  const { t } = useTranslation();
  const now = Date.now();
  const refreshSeconds = Math.ceil(nextReminderDelay(startedAt, now, everyMinutes * minute) / 1000) + 1;
  const played = minutesPlayed(startedAt, now, minute);
  const notice =
    played >= everyMinutes
      ? `<p class="reminder-notice" data-testid="reminder-notice">${escapeHtml(t('play.reminder.notice', { count: played }))}</p>`
      : '';
  return (
    <noscript
      suppressHydrationWarning
      dangerouslySetInnerHTML={{
        __html: `<meta http-equiv="refresh" content="${refreshSeconds}" data-testid="reminder-refresh">${notice}`,
      }}
    />
  );
}

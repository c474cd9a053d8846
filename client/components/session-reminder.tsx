import { useEffect, useId, useState } from 'react';
import { useTranslation } from '../i18n.ts';
import {
  minuteMs,
  readReminderChoice,
  reminderChoices,
  saveReminderChoice,
  scheduleReminders,
  type ReminderChoice,
  defaultReminder,
  parseReminderChoice,
} from '../lib/play-reminder.ts';

function localStore(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * "Remind me every 30 / 60 minutes / off", kept in localStorage; when a reminder is due, a
 * notice (not a dialog: play is not interrupted) says how long this session has lasted.
 * `minute` is the length of a minute in ms: injectable for tests and demonstrations.
 */
export function SessionReminder({ startedAt, minute = minuteMs }: { startedAt: string; minute?: number }) {
  const { t } = useTranslation();
  const id = useId();
  // The stored choice is read after hydration (the server cannot know it).
  const [choice, setChoice] = useState<ReminderChoice>(defaultReminder);
  const [notice, setNotice] = useState<number | null>(null);
  useEffect(() => setChoice(readReminderChoice(localStore())), []);
  useEffect(() => {
    const started = Date.parse(startedAt);
    if (Number.isNaN(started)) return undefined;
    return scheduleReminders({ startedAt: started, everyMinutes: choice, minute, onDue: setNotice });
  }, [choice, startedAt, minute]);

  return (
    <div className="session-reminder">
      <label htmlFor={id}>{t('play.reminder.label')}</label>{' '}
      <select
        id={id}
        value={String(choice)}
        data-testid="reminder-choice"
        onChange={(event) => {
          const next = parseReminderChoice(event.target.value);
          setChoice(next);
          setNotice(null);
          saveReminderChoice(localStore(), next);
        }}
      >
        {reminderChoices.map((minutes) => (
          <option key={minutes} value={String(minutes)}>
            {minutes === 0 ? t('play.reminder.off') : t('play.reminder.every', { count: minutes })}
          </option>
        ))}
      </select>
      <div role="status" aria-live="polite">
        {notice !== null ? (
          <p className="reminder-notice" data-testid="reminder-notice">
            {t('play.reminder.notice', { count: notice })}{' '}
            <button type="button" className="button button-quiet" onClick={() => setNotice(null)}>
              {t('play.reminder.dismiss')}
            </button>
          </p>
        ) : null}
      </div>
    </div>
  );
}

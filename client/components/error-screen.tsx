import { useTranslation } from '../i18n.ts';
import type { PageErrorInfo } from '../router/page-error.ts';
import { hardNavigate } from '../lib/navigation-state.ts';
import { loadNavigation } from '../router/navigation-code.ts';

function headingKey(statusCode: number): string {
  if (statusCode === 404) return 'error.notFoundHeading';
  if (statusCode >= 400 && statusCode < 500) return 'error.badRequestHeading';
  return 'error.heading';
}

/** The body of an error: status code, the spec's message, and what the visitor can do. */
export function ErrorDetails({ info }: { info: PageErrorInfo }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="error-status">{t('error.statusLabel', { statusCode: info.statusCode })}</p>
      <h1>{t(headingKey(info.statusCode))}</h1>
      <p className="error-message" data-testid="error-message">
        {info.message}
      </p>
      <p className="error-hint">{t(info.statusCode >= 500 ? 'error.serverHint' : 'error.hint')}</p>
      {info.stack ? <pre className="error-stack">{info.stack}</pre> : null}
    </>
  );
}

/**
 * Clear errors: `navigateTo('/')`, a new navigation that replaces the error with the home page (a
 * full load where the app has no router). navigateTo is loaded on demand: failing that, a full load.
 */
export function clearErrors(): void {
  void loadNavigation().then(
    ({ navigateTo }) => navigateTo('/'),
    () => hardNavigate('/'),
  );
}

/**
 * The full-screen error (fatal and unhandled errors): no layout, one way out. "Clear errors" is a
 * link to `/`, so it works before (or without) JavaScript; with it, `onClear` navigates in the app.
 */
export function ErrorScreen({ info, onClear }: { info: PageErrorInfo; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <main className="error-screen" data-testid="error-screen">
      <div className="error-card" role="alert">
        <ErrorDetails info={info} />
        <p className="error-actions">
          <a
            href="/"
            className="button button-primary"
            data-testid="clear-errors"
            onClick={(event) => {
              event.preventDefault();
              onClear();
            }}
          >
            {t('error.clear')}
          </a>
        </p>
      </div>
    </main>
  );
}

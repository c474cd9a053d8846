import { useTranslation } from '../i18n.ts';
import type { PageErrorInfo } from '../router/page-error.ts';

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

/** The full-screen error (fatal and unhandled errors): no layout, one way out. */
export function ErrorScreen({ info, onClear }: { info: PageErrorInfo; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="error-screen" role="alert" data-testid="error-screen">
      <div className="error-card">
        <ErrorDetails info={info} />
        <button type="button" className="button button-primary" onClick={onClear}>
          {t('error.clear')}
        </button>
      </div>
    </div>
  );
}

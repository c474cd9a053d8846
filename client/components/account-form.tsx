import type { ReactNode, Ref } from 'react';
import { Form, useActionData, useNavigation, useSearchParams } from 'react-router';
import { localePath } from '../../contract/locales.ts';
import type { FormState } from '../../contract/page-data.ts';
import { useLocale } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import { AppLink } from './app-link.tsx';
import { ErrorSummary, FormField, useClearedAfterSubmit } from './form-field.tsx';

/** What a login or registration form needs from its last submission. */
export function useAccountForm() {
  const state = useActionData<FormState>();
  const busy = useNavigation().state === 'submitting';
  const passwordRef = useClearedAfterSubmit(state);
  return { state, busy, passwordRef };
}

/** The email address field of login, registration and "forgot password", refilled after a submission with errors. */
export function EmailField({ state }: { state: FormState | undefined }) {
  const { t } = useTranslation();
  return (
    <FormField
      name="email"
      type="email"
      label={t('form.email')}
      autoComplete="email"
      defaultValue={state?.values.email ?? ''}
      error={state?.errors.email}
    />
  );
}

/** The field that chooses a password (registration, a password reset): the rules as its hint, never refilled (`ref`: useAccountForm's `passwordRef`). */
export function NewPasswordField({
  label,
  state,
  ref,
}: {
  label: string;
  state: FormState | undefined;
  ref: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  return (
    <FormField
      name="password"
      type="password"
      ref={ref}
      label={label}
      hint={t('form.passwordHint')}
      autoComplete="new-password"
      error={state?.errors.password}
    />
  );
}

interface AccountFormPageProps {
  /** The page this one is: the heading and the link to the other form follow from it. */
  page: 'login' | 'registration';
  busy: boolean;
  /** The last submission's outcome: its message and field errors go into the error summary. */
  state: FormState | undefined;
  labels: Record<string, string>;
  children: ReactNode;
}

const other = { login: 'registration', registration: 'login' } as const;
/** What the panel beside each form says (`form.aside.<page>.<point>`). */
const asidePoints = {
  login: ['point1', 'point2', 'point3'],
  registration: ['point1', 'point2', 'point3', 'point4'],
} as const;
const copy = {
  login: { lead: 'form.loginLead', submit: 'form.submitLogin', switchPrompt: 'form.noAccount' },
  registration: { lead: 'form.registrationLead', submit: 'form.submitRegistration', switchPrompt: 'form.haveAccount' },
} as const;

interface AccountFormProps {
  busy: boolean;
  /** The form-wide message code of the last submission (translated under `form.messages`). */
  message: string | undefined;
  /** Field errors of the last submission, linked from the error summary by these labels. */
  errors?: Record<string, string> | undefined;
  labels?: Record<string, string>;
  submitLabel: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  /** On a page with several forms: the name that keeps their field ids apart (and the `intent` posted). */
  scope?: string;
  /** A quieter or a warning submit button (the account page's "end" and "delete" forms). */
  buttonClass?: string;
}

/** Posted to the page's action: the API through `clientAction`, or a form post without JavaScript. */
export function AccountForm({
  busy,
  message,
  errors,
  labels,
  submitLabel,
  children,
  className,
  testId,
  scope,
  buttonClass,
}: AccountFormProps) {
  return (
    <Form
      method="post"
      noValidate
      className={`account-form${className ? ` ${className}` : ''}`}
      aria-busy={busy}
      data-testid={testId}
    >
      <ErrorSummary message={message} errors={labels ? (errors ?? {}) : {}} labels={labels ?? {}} scope={scope} />
      {scope ? <input type="hidden" name="intent" value={scope} /> : null}
      {children}
      <button type="submit" className={`button ${buttonClass ?? 'button-primary'}`} disabled={busy}>
        {submitLabel}
      </button>
    </Form>
  );
}

/** The frame both account forms share; the link to the other form keeps the way back (`?redirect=`). */
export function AccountFormPage({ page, busy, state, labels, children }: AccountFormPageProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [search] = useSearchParams();
  const redirectTo = search.get('redirect');
  const switchTo = other[page];
  return (
    <section className="page form-page form-page-with-aside">
      <div className="form-main">
        <h1>{t(`nav.${page}`)}</h1>
        <p className="lead">{t(copy[page].lead)}</p>
        <AccountForm
          busy={busy}
          message={state?.message}
          errors={state?.errors}
          labels={labels}
          submitLabel={t(copy[page].submit)}
        >
          {children}
        </AccountForm>
        <p className="form-switch">
          {t(copy[page].switchPrompt)}{' '}
          <AppLink
            to={`${localePath(locale, `/${switchTo}`)}${redirectTo ? `?redirect=${encodeURIComponent(redirectTo)}` : ''}`}
          >
            {t(`nav.${switchTo}`)}
          </AppLink>
        </p>
      </div>
      <aside className="form-aside" aria-labelledby="form-aside-title" data-testid="form-aside">
        <h2 id="form-aside-title">{t(`form.aside.${page}.title`)}</h2>
        <ul>
          {asidePoints[page].map((point) => (
            <li key={point}>{t(`form.aside.${page}.${point}`)}</li>
          ))}
        </ul>
        <p>
          <AppLink to={localePath(locale, '/play-responsibility')}>{t('form.aside.responsible')}</AppLink>
        </p>
      </aside>
    </section>
  );
}

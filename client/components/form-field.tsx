import { useEffect, useRef, type InputHTMLAttributes, type Ref } from 'react';
import { useTranslation } from '../i18n.ts';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
  name: string;
  label: string;
  /** The error code for this field, if the last submission had one. */
  error?: string;
  hint?: string;
  /** Which form of the page the field is in, when a page has several (the account page): keeps ids unique. */
  scope?: string | undefined;
}

function fieldId(name: string, scope?: string): string {
  return scope ? `field-${scope}-${name}` : `field-${name}`;
}

/** A field's error code in words. */
function useFieldErrorText(): (code: string) => string {
  const { t } = useTranslation();
  return (code) => t(`form.errors.${code}`, { defaultValue: t('form.errors.invalid') });
}

/** A labelled input with its translated error tied to it for screen readers. */
export function FormField({ name, label, error, hint, scope, ...input }: FieldProps) {
  // Named after the field (and its form, on a page with several): the error summary links to it.
  const id = fieldId(name, scope);
  const errorText = useFieldErrorText();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const checkbox = input.type === 'checkbox';
  const control = (
    <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
  );
  return (
    <div className={`field${checkbox ? ' field-checkbox' : ''}${error ? ' field-invalid' : ''}`}>
      {checkbox ? control : null}
      <label htmlFor={id}>{label}</label>
      {checkbox ? null : control}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`} data-field-error={name}>
          {errorText(error)}
        </p>
      ) : null}
    </div>
  );
}

/** The form-wide message (wrong credentials, too many attempts ...). */
export function FormMessage({ code }: { code?: string | undefined }) {
  const { t } = useTranslation();
  if (!code) return null;
  return (
    <p className="form-message" data-testid="form-message">
      {t(`form.messages.${code}`, { defaultValue: t('form.messages.UNKNOWN') })}
    </p>
  );
}

/**
 * What to fix after a submission with errors: the form-wide message and a link to each field in
 * error. It takes focus when it appears (so the keyboard and the screen reader start there), and
 * a link moves focus into its field. Without JavaScript the links are plain in-page anchors.
 */
export function ErrorSummary({
  message,
  errors,
  labels,
  scope,
}: {
  message?: string | undefined;
  errors: Record<string, string>;
  labels: Record<string, string>;
  scope?: string | undefined;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const ref = useRef<HTMLDivElement>(null);
  // In the order the form shows its fields (the labels' order), as a visitor reads them.
  const order = Object.keys(labels);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const fields = Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b));
  const shown = Boolean(message) || fields.length > 0;
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown, message, errors]);
  if (!shown) return null;
  return (
    <div
      className="error-summary"
      role="alert"
      tabIndex={-1}
      ref={ref}
      aria-labelledby={scope ? `error-summary-title-${scope}` : 'error-summary-title'}
      data-testid="error-summary"
    >
      <h2 id={scope ? `error-summary-title-${scope}` : 'error-summary-title'}>{t('form.errorSummary')}</h2>
      <FormMessage code={message} />
      {fields.length > 0 ? (
        <ul>
          {fields.map(([name, code]) => (
            <li key={name}>
              <a
                href={`#${fieldId(name, scope)}`}
                data-summary-field={name}
                onClick={(event) => {
                  const input = document.getElementById(fieldId(name, scope));
                  if (!input) return;
                  event.preventDefault();
                  input.focus();
                }}
              >
                {labels[name] ?? name}: {errorText(code)}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A password is never kept after a submission comes back, with or without JavaScript. */
export function useClearedAfterSubmit(result: unknown) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (result && ref.current) ref.current.value = '';
  }, [result]);
  return ref;
}

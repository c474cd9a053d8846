import { useEffect, useId, useRef, type InputHTMLAttributes, type Ref } from 'react';
import { useTranslation } from '../i18n.ts';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
  name: string;
  label: string;
  /** The error code for this field, if the last submission had one. */
  error?: string;
  hint?: string;
}

/** A labelled input with its translated error tied to it for screen readers. */
export function FormField({ name, label, error, hint, ...input }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
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
          {t(`form.errors.${error}`, { defaultValue: t('form.errors.invalid') })}
        </p>
      ) : null}
    </div>
  );
}

/** The form-wide message (wrong credentials, too many attempts ...), announced when it appears. */
export function FormMessage({ code }: { code?: string }) {
  const { t } = useTranslation();
  if (!code) return null;
  return (
    <p className="form-message" role="alert" data-testid="form-message">
      {t(`form.messages.${code}`, { defaultValue: t('form.messages.UNKNOWN') })}
    </p>
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

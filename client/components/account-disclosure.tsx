import type { ReactNode } from 'react';

/**
 * One of the account page's secondary forms behind a row that says what it changes and what it
 * holds now: a native <details>, so it opens without JavaScript and by keyboard. `open` after the
 * form was sent, so its errors or its confirmation are seen.
 */
export function AccountDisclosure({
  title,
  value,
  open,
  testId,
  children,
}: {
  title: string;
  value?: ReactNode;
  open: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <details className="account-disclosure" open={open || undefined} data-testid={testId}>
      <summary>
        <h3>{title}</h3>
        {value ? <span className="disclosure-value">{value}</span> : null}
        <span className="disclosure-mark" aria-hidden="true" />
      </summary>
      <div className="disclosure-body">{children}</div>
    </details>
  );
}

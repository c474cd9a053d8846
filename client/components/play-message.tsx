import type { ReactNode } from 'react';

/** Why Play went nowhere, beside a Play button in the page. */
export function PlayMessage({ kind, children }: { kind: string; children: ReactNode }) {
  return (
    <p className="play-message" role="alert" data-testid="play-message" data-kind={kind}>
      {children}
    </p>
  );
}

import type { Locale } from './locales.ts';

export const selfExclusionPeriods = ['24h', '7d', '30d', '6m'] as const;
export type SelfExclusionPeriod = (typeof selfExclusionPeriods)[number];

export function isSelfExclusionPeriod(value: unknown): value is SelfExclusionPeriod {
  return typeof value === 'string' && (selfExclusionPeriods as readonly string[]).includes(value);
}

export interface PlaySessionView {
  id: string;
  startedAt: string;
  locale: Locale;
  userAgent: string | null;
}

export interface SelfExclusionView {
  /** ISO; Play is refused until then. */
  until: string;
  /** Of the break that ends last. */
  period: SelfExclusionPeriod;
  startsAt: string;
}

export interface AccountOverview {
  playSessions: PlaySessionView[];
  selfExclusion: SelfExclusionView | null;
}

export interface AccountPageData extends AccountOverview {
  playSessions: (PlaySessionView & { device: string })[];
}

export interface VerifiedLaunch {
  valid: true;
  user: { id: string; displayName: string };
  session: { id: string; startedAt: string; locale: Locale };
}

export interface PlayPageData {
  playSessions: { id: string; startedAt: string; device: string }[];
  /** Where Play leads: the operator's destination by its host name, or null for this site's own page. */
  destination: string | null;
}

/** `/play?problem=<reason>`, with the code `POST /api/play/verify` answers for it. */
export const launchProblemCodes = {
  invalid: 'LAUNCH_TOKEN_INVALID',
  unknown: 'LAUNCH_TOKEN_UNKNOWN',
  used: 'LAUNCH_TOKEN_USED',
  expired: 'LAUNCH_TOKEN_EXPIRED',
  foreign: 'LAUNCH_TOKEN_FORBIDDEN',
} as const;
export type LaunchProblem = keyof typeof launchProblemCodes;

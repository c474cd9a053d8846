import type { Locale } from './locales.ts';

export const selfExclusionPeriods = ['24h', '7d', '30d', '6m'] as const;
export type SelfExclusionPeriod = (typeof selfExclusionPeriods)[number];

export function isSelfExclusionPeriod(value: unknown): value is SelfExclusionPeriod {
  return typeof value === 'string' && (selfExclusionPeriods as readonly string[]).includes(value);
}

/** A play session as the API and the account page show it. */
export interface PlaySessionView {
  id: string;
  startedAt: string;
  locale: Locale;
  userAgent: string | null;
}

/** The current self-exclusion break, if any. */
export interface SelfExclusionView {
  /** When the break ends (ISO); Play is refused until then. */
  until: string;
  /** The period of the break that ends last. */
  period: SelfExclusionPeriod;
  startsAt: string;
}

/** `GET /api/account` and the `/account` page's data. */
export interface AccountOverview {
  playSessions: PlaySessionView[];
  selfExclusion: SelfExclusionView | null;
}

/** The `/account` page's data: the overview, each play session's device named in the page's language. */
export interface AccountPageData extends AccountOverview {
  playSessions: (PlaySessionView & { device: string })[];
}

/** What `POST /api/play/verify` answers for a good token. */
export interface VerifiedLaunch {
  valid: true;
  user: { id: string; displayName: string };
  session: { id: string; startedAt: string; locale: Locale };
}

/** The `/play` page's data: the player's latest play sessions (`/play?session=<id>` shows one). */
export interface PlayPageData {
  playSessions: { id: string; startedAt: string }[];
}

/**
 * Why the own `/play` page could not use a launch token (`/play?problem=<reason>`), with the
 * code `POST /api/play/verify` answers for it.
 */
export const launchProblemCodes = {
  invalid: 'LAUNCH_TOKEN_INVALID',
  unknown: 'LAUNCH_TOKEN_UNKNOWN',
  used: 'LAUNCH_TOKEN_USED',
  expired: 'LAUNCH_TOKEN_EXPIRED',
  foreign: 'LAUNCH_TOKEN_FORBIDDEN',
} as const;
export type LaunchProblem = keyof typeof launchProblemCodes;

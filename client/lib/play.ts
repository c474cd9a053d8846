/**
 * The Play action in the browser: `POST /api/play`, then follow the launch URL with
 * `navigateTo(url, { external: true })`, which goes only to this site or an allowed origin
 * (PLAY_URL's origin and ALLOWED_EXTERNAL_ORIGINS). And, on the `/play` page, the check of a
 * launch token through `POST /api/play/verify`, once per token whatever React does.
 */
import type { Locale } from '../../contract/locales.ts';
import { loginForPlay } from '../../contract/login-path.ts';
import { launchProblemCodes, type LaunchProblem, type VerifiedLaunch } from '../../contract/play.ts';
import { api } from './api.ts';
import { navigateTo, type NavigateToOptions } from './navigate.ts';
import { NavigationRefusedError } from '../../contract/navigation-guard.ts';

export type PlayOutcome =
  /** On the way to the destination. */
  | { kind: 'navigated' }
  /** Not (or no longer) logged in: log in, then come back to `/play`. */
  | { kind: 'login'; to: string }
  /** During a self-exclusion break: refused until `until`. */
  | { kind: 'self-excluded'; until: string }
  /** The destination's origin is not on the allow-list: nowhere to go. */
  | { kind: 'refused'; url: string }
  /** Anything else: an error code to translate (`NETWORK`, `RATE_LIMITED`, `INTERNAL` ...). */
  | { kind: 'failed'; code: string };

export interface PlayDependencies {
  request: (locale: Locale) => Promise<{ url?: unknown }>;
  navigate: (to: string, options: NavigateToOptions) => Promise<void>;
}

const browserDependencies: PlayDependencies = {
  request: (locale) => api<{ url: string }>('/play', { method: 'POST', body: { locale } }),
  navigate: navigateTo,
};

interface ApiFailure {
  statusCode?: number;
  data?: { code?: unknown; until?: unknown } | null;
}

/** Code of a failed API call as the pages translate it. */
export function failureCode(error: unknown): string {
  const { statusCode, data } = (error ?? {}) as ApiFailure;
  if (data && typeof data === 'object' && typeof data.code === 'string') return data.code;
  return statusCode === undefined ? 'NETWORK' : 'UNKNOWN';
}

/** Presses Play for a logged-in player. Never throws: every way it can end is an outcome. */
export async function startPlay(
  locale: Locale,
  dependencies: PlayDependencies = browserDependencies,
): Promise<PlayOutcome> {
  let url: unknown;
  try {
    ({ url } = await dependencies.request(locale));
  } catch (error) {
    const { statusCode, data } = (error ?? {}) as ApiFailure;
    if (statusCode === 401) return { kind: 'login', to: loginForPlay(locale) };
    if (statusCode === 403 && data?.code === 'PLAY_SELF_EXCLUDED' && typeof data.until === 'string') {
      return { kind: 'self-excluded', until: data.until };
    }
    return { kind: 'failed', code: failureCode(error) };
  }
  if (typeof url !== 'string' || url === '') return { kind: 'failed', code: 'UNKNOWN' };
  try {
    await dependencies.navigate(url, { external: true });
    return { kind: 'navigated' };
  } catch (error) {
    if (error instanceof NavigationRefusedError) return { kind: 'refused', url };
    return { kind: 'failed', code: 'UNKNOWN' };
  }
}

export type LaunchCheck =
  | { kind: 'verified'; launch: VerifiedLaunch }
  /** `LAUNCH_TOKEN_USED`, `LAUNCH_TOKEN_EXPIRED`, `LAUNCH_TOKEN_INVALID`, `LAUNCH_TOKEN_UNKNOWN`, `RATE_LIMITED`, `NETWORK` ... */
  | { kind: 'failed'; code: string };

export interface VerifyDependencies {
  request: (token: string) => Promise<VerifiedLaunch>;
}

const browserVerifyDependencies: VerifyDependencies = {
  request: (token) => api<VerifiedLaunch>('/play/verify', { method: 'POST', body: { token } }),
};

/** Checks in flight or done, by token: StrictMode's double effects and remounts share one request. */
const checks = new Map<string, Promise<LaunchCheck>>();
/** Sessions verified in this tab, by id: `/play?session=<id>` shows one even before the page's data has it. */
const verifiedSessions = new Map<string, VerifiedLaunch>();

/**
 * Verifies a launch token once (it is single-use). The page then replaces its address with
 * `?session=<id>`, which the page's data (and, until that data is fetched again, this tab's
 * memory: `verifiedSession`) can show on a reload too.
 */
export function verifyLaunch(
  token: string,
  dependencies: VerifyDependencies = browserVerifyDependencies,
): Promise<LaunchCheck> {
  let check = checks.get(token);
  if (check) return check;
  check = dependencies.request(token).then(
    (launch): LaunchCheck => {
      verifiedSessions.set(launch.session.id, launch);
      return { kind: 'verified', launch };
    },
    (error: unknown): LaunchCheck => ({ kind: 'failed', code: failureCode(error) }),
  );
  checks.set(token, check);
  return check;
}

/** A play session this tab verified, by id. */
export function verifiedSession(id: string): VerifiedLaunch | undefined {
  return verifiedSessions.get(id);
}

/** `?problem=` of the page for a verify failure that spent or refused the token (`used` ...); null for a passing one (network, rate limit). */
export function launchProblemOf(code: string): LaunchProblem | null {
  const found = Object.entries(launchProblemCodes).find(([, known]) => known === code);
  return found ? (found[0] as LaunchProblem) : null;
}

/** For tests: forget the checks made. */
export function forgetLaunchChecks(): void {
  checks.clear();
  verifiedSessions.clear();
}

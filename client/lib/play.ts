// Play in the browser: the launch URL is followed with `navigateTo(url, { external: true })`, so
// only to this site or an allowed origin.
import type { Locale } from '../../contract/locales.ts';
import { loginForPlay } from '../../contract/login-path.ts';
import { launchProblemCodes, type LaunchProblem, type VerifiedLaunch } from '../../contract/play.ts';
import { api } from './api.ts';
import { navigateTo, type NavigateToOptions } from './navigate.ts';
import { NavigationRefusedError } from '../../contract/navigation-guard.ts';

export type PlayOutcome =
  | { kind: 'navigated' }
  | { kind: 'login'; to: string }
  | { kind: 'self-excluded'; until: string }
  | { kind: 'refused'; url: string }
  /** An error code to translate (`NETWORK`, `RATE_LIMITED` ...). */
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

export function failureCode(error: unknown): string {
  const { statusCode, data } = (error ?? {}) as ApiFailure;
  if (data && typeof data === 'object' && typeof data.code === 'string') return data.code;
  return statusCode === undefined ? 'NETWORK' : 'UNKNOWN';
}

/** Never throws: every way it can end is an outcome. */
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

export type LaunchCheck = { kind: 'verified'; launch: VerifiedLaunch } | { kind: 'failed'; code: string };

export interface VerifyDependencies {
  request: (token: string) => Promise<VerifiedLaunch>;
}

const browserVerifyDependencies: VerifyDependencies = {
  request: (token) => api<VerifiedLaunch>('/play/verify', { method: 'POST', body: { token } }),
};

/** StrictMode's double effects and remounts share one request per token (single-use). */
const checks = new Map<string, Promise<LaunchCheck>>();
/** `/play?session=<id>` shows one even before the page's data has it. */
const verifiedSessions = new Map<string, VerifiedLaunch>();

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

export function verifiedSession(id: string): VerifiedLaunch | undefined {
  return verifiedSessions.get(id);
}

/** The `?problem=` for a failure that spent or refused the token; null for a passing one (network). */
export function launchProblemOf(code: string): LaunchProblem | null {
  const found = Object.entries(launchProblemCodes).find(([, known]) => known === code);
  return found ? (found[0] as LaunchProblem) : null;
}

/** For tests. */
export function forgetLaunchChecks(): void {
  checks.clear();
  verifiedSessions.clear();
}

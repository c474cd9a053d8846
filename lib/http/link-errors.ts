import { HttpError } from '../../contract/http-error.ts';
import type { TokenProblem } from '../auth/account-tokens.ts';

/** What an emailed link that cannot be used answers, the same for every kind of link. */
const tokenFailures: Record<TokenProblem, [number, string, string]> = {
  invalid: [400, 'TOKEN_INVALID', 'This link is not valid: it may be incomplete or altered.'],
  used: [409, 'TOKEN_USED', 'This link has already been used.'],
  expired: [410, 'TOKEN_EXPIRED', 'This link has expired.'],
};

export function tokenFailed(problem: TokenProblem): HttpError {
  const [status, code, message] = tokenFailures[problem];
  return new HttpError(status, code, message);
}

/** Which problem a `tokenFailed` error names, if it is one. */
export function tokenProblemOf(error: unknown): TokenProblem | null {
  if (!(error instanceof HttpError)) return null;
  const found = Object.entries(tokenFailures).find(([, [, code]]) => code === error.code);
  return found ? (found[0] as TokenProblem) : null;
}

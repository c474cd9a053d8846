import type { FormActionName } from '../../contract/routes.ts';
import { account } from './actions/account.ts';
import { login, logout, register } from './actions/auth.ts';
import { confirmEmail, verifyEmail } from './actions/emailed-links.ts';
import { forgotPassword, resetPassword } from './actions/password-reset.ts';
import { play } from './actions/play.ts';
import type { FormAction } from './actions/results.ts';

/**
 * What a POST to each page runs, by the route table's `action` name (contract/routes.ts), for a form
 * posted without JavaScript and with it alike. A name missing here fails the type-check.
 */
export const formActions: Record<FormActionName, FormAction> = {
  login,
  register,
  logout,
  forgotPassword,
  resetPassword,
  verifyEmail,
  confirmEmail,
  play,
  account,
};

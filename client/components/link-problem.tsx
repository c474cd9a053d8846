import { localePath } from '../../contract/locales.ts';
import { useLocale } from '../hooks.ts';
import { useTranslation } from '../i18n.ts';
import { AppLink } from './app-link.tsx';

export type LinkProblemCode = 'invalid' | 'used' | 'expired';
const problems: readonly LinkProblemCode[] = ['invalid', 'used', 'expired'];

/** `?problem=` of a link page, or null. Anything unexpected counts as an invalid link. */
export function linkProblemOf(search: URLSearchParams): LinkProblemCode | null {
  const value = search.get('problem');
  if (value === null) return null;
  return (problems as readonly string[]).includes(value) ? (value as LinkProblemCode) : 'invalid';
}

/** Where each kind of link lets the visitor start again. */
const retry = {
  passwordReset: { path: '/forgot-password', label: 'links.retry.passwordReset' },
  verifyEmail: { path: '/account', label: 'links.retry.verifyEmail' },
  confirmEmail: { path: '/account', label: 'links.retry.confirmEmail' },
} as const;

/** The page an emailed link shows when it cannot be used: what happened, and the way to a new one. */
export function LinkProblem({ kind, problem }: { kind: keyof typeof retry; problem: LinkProblemCode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <section className="page form-page link-problem" data-testid="link-problem" data-problem={problem}>
      <h1>{t(`links.${problem}.heading`)}</h1>
      <p className="lead">{t(`links.${problem}.text`)}</p>
      <p>
        <AppLink to={localePath(locale, retry[kind].path)} className="button button-primary">
          {t(retry[kind].label)}
        </AppLink>
      </p>
    </section>
  );
}

import { EmailedLinkPage, emailedLinkAction, type EmailedLink } from '../components/emailed-link-page.tsx';

/** `/verify-email?token=...`: the link from the verification email; the button verifies the address. */
const link: EmailedLink = {
  apiPath: '/auth/verify-email',
  page: '/verify-email',
  kind: 'verifyEmail',
  doneTestId: 'email-verified',
};

export const clientAction = emailedLinkAction(link);

export default function VerifyEmailPage() {
  return <EmailedLinkPage {...link} />;
}

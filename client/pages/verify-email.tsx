import { EmailedLinkPage, type EmailedLink } from '../components/emailed-link-page.tsx';

/** `/verify-email?token=...`: the link from the verification email; the button verifies the address. */
const link: EmailedLink = {
  page: '/verify-email',
  kind: 'verifyEmail',
  doneTestId: 'email-verified',
};

export default function VerifyEmailPage() {
  return <EmailedLinkPage {...link} />;
}

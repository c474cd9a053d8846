import { EmailedLinkPage, type EmailedLink } from '../components/emailed-link-page.tsx';

/** `/confirm-email?token=...`: the link sent to a new address; the account moves to it only when the button is pressed. */
const link: EmailedLink = {
  page: '/confirm-email',
  kind: 'confirmEmail',
  doneTestId: 'email-changed',
};

export default function ConfirmEmailPage() {
  return <EmailedLinkPage {...link} />;
}

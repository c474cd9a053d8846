import { EmailedLinkPage, emailedLinkAction, type EmailedLink } from '../components/emailed-link-page.tsx';

/** `/confirm-email?token=...`: the link sent to a new address; the account moves to it only when the button is pressed. */
const link: EmailedLink = {
  apiPath: '/auth/email-change/confirm',
  page: '/confirm-email',
  kind: 'confirmEmail',
  doneTestId: 'email-changed',
};

export const clientAction = emailedLinkAction(link);

export default function ConfirmEmailPage() {
  return <EmailedLinkPage {...link} />;
}

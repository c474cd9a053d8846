import { useTranslation } from '../i18n.ts';
import { Form } from 'react-router';

/** `/logout` opened directly: a confirmation, since logging out is a POST. */
export default function LogoutPage() {
  const { t } = useTranslation();
  return (
    <section className="page form-page">
      <h1>{t('account.logout')}</h1>
      <Form method="post" className="account-form">
        <p>{t('account.logoutConfirm')}</p>
        <button type="submit" className="button button-primary">
          {t('account.logout')}
        </button>
      </Form>
    </section>
  );
}

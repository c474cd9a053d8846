import { useTranslation } from 'react-i18next';

export default function LoginPage() {
  const { t } = useTranslation();
  return (
    <section className="page login">
      <h1>{t('nav.login')}</h1>
    </section>
  );
}

import { useTranslation } from 'react-i18next';

export default function RegistrationPage() {
  const { t } = useTranslation();
  return (
    <section className="page registration">
      <h1>{t('nav.registration')}</h1>
    </section>
  );
}

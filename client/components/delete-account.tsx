import { useTranslation } from '../i18n.ts';
import { useIntentForm } from './account-details.tsx';
import { AccountDisclosure } from './account-disclosure.tsx';
import { AccountForm } from './account-form.tsx';
import { FormField, useClearedAfterSubmit } from './form-field.tsx';

/** Deleting the account, confirmed with the password. */
export function DeleteAccount() {
  const { t } = useTranslation();
  const { state, busy } = useIntentForm('deleteAccount');
  const passwordRef = useClearedAfterSubmit(state);
  const labels = { password: t('form.password') };
  return (
    <section className="account-section danger-zone" id="delete-account" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title" className="section-title">
        {t('accountSettings.deleteHeading')}
      </h2>
      <p>{t('accountSettings.deleteText')}</p>
      <AccountDisclosure title={t('accountSettings.deleteOpen')} open={Boolean(state)} testId="delete-disclosure">
        <AccountForm
          scope="deleteAccount"
          busy={busy}
          message={state?.message}
          errors={state?.errors}
          labels={labels}
          submitLabel={t('accountSettings.deleteSubmit')}
          buttonClass="button-danger"
          testId="delete-account-form"
        >
          <FormField
            scope="deleteAccount"
            name="password"
            type="password"
            ref={passwordRef}
            label={labels.password}
            autoComplete="current-password"
            error={state?.errors.password}
          />
        </AccountForm>
      </AccountDisclosure>
    </section>
  );
}

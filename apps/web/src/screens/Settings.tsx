import { EmailNotificationsSection } from './settings/EmailNotifications';
import { useTranslation } from 'react-i18next';
import { PushDevicesSection } from './settings/PushDevices';
import { RemindersSection } from './settings/Reminders';
import { VacationSection } from './settings/Vacation';

/**
 * Settings: how and when the server reaches the player while away, one section per feature (each
 * in ./settings/, loading and saving its own part). Keep this a list of sections.
 */
export function SettingsScreen() {
  const { t } = useTranslation('settings');
  return (
    <>
      <h1>{t('title')}</h1>
      <PushDevicesSection />
      <EmailNotificationsSection />
      <RemindersSection />
      <VacationSection />
    </>
  );
}

import { EmailNotificationsSection } from './settings/EmailNotifications';

/**
 * Settings: how the player is reached while away, one section per feature (each in ./settings/,
 * loading and saving its own part). Keep this a list of sections.
 */
export function SettingsScreen() {
  return (
    <>
      <h1>Settings</h1>
      <EmailNotificationsSection />
    </>
  );
}

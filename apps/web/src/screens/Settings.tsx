import { RemindersSection } from './settings/Reminders';

/** How the player is reached while away; each part a section of its own in ./settings/. */
export function SettingsScreen() {
  return (
    <>
      <h1>Settings</h1>
      <RemindersSection />
    </>
  );
}

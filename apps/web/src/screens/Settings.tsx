import { RemindersSection } from './settings/Reminders';
import { VacationSection } from './settings/Vacation';

/** The player's settings, a section each (./settings/): how and when the server reaches them. */
export function SettingsScreen() {
  return (
    <>
      <h1>Settings</h1>
      <RemindersSection />
      <VacationSection />
    </>
  );
}

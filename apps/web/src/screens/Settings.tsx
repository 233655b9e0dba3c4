import { PushDevicesSection } from './settings/PushDevices';

/** How the player is reached while away: for now, Web Push on their devices. */
export function SettingsScreen() {
  return (
    <>
      <h1>Settings</h1>
      <PushDevicesSection />
    </>
  );
}

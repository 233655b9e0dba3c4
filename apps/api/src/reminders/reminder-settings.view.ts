import type { ReminderPoint, ReminderPoints } from './reminder-points.js';
import type { ReminderPointModel, ReminderSettingsModel } from './models/reminder-settings.model.js';

/** The settings as both transports show them: each point with both fields, one of them null. */
export function reminderSettingsView(points: ReminderPoints): ReminderSettingsModel {
  const view = (p: ReminderPoint): ReminderPointModel =>
    'percent' in p ? { percent: p.percent, secondsBefore: null } : { percent: null, secondsBefore: p.secondsBefore };
  return { push: points.push.map(view), email: points.email.map(view) };
}

import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../i18n';

/** The interface's language, switchable at any time (kept in this browser). */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language">
      <span className="visually-hidden">{t('language.label')}</span>
      <select value={i18n.resolvedLanguage} onChange={(e) => void i18n.changeLanguage(e.target.value)}>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}

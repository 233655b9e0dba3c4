// The interface's languages: English, German, Japanese and Polish (the rules' source texts and the
// game's home). Messages live in src/locales/<language>/<namespace>.json, one namespace an area of
// the client, so a translator edits plain JSON files; English is the fallback for a missing key.
import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'ja', name: '日本語' },
  { code: 'pl', name: 'Polski' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });
/** Every message file, by language and namespace, as the bundle holds them (they are small). */
export const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, file] of Object.entries(files)) {
  const [, language, namespace] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path)!;
  (resources[language] ??= {})[namespace] = file.default;
}
export const NAMESPACES = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))];

declare global {
  interface Window {
    /** Keys asked for but in no message file ("ns:key"), while collecting (see below). */
    __i18nMissing?: string[];
  }
}

/**
 * Missing keys are collected into window.__i18nMissing in development, or when this browser's
 * localStorage holds mizerka.i18n.collectMissing = "1" (the browser tests set it before the page loads).
 */
const collectMissing =
  import.meta.env.DEV || (typeof localStorage !== 'undefined' && (() => {
    try {
      return localStorage.getItem('mizerka.i18n.collectMissing') === '1';
    } catch {
      return false;
    }
  })());
if (collectMissing && typeof window !== 'undefined') window.__i18nMissing ??= [];

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    ns: NAMESPACES,
    defaultNS: 'common',
    fallbackLng: 'en',
    supportedLngs: LANGUAGES.map((l) => l.code),
    nonExplicitSupportedLngs: true,
    // The choice is kept in this browser; else the browser's own languages decide.
    detection: { order: ['localStorage', 'navigator'], lookupLocalStorage: 'mizerka.language', caches: ['localStorage'] },
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: collectMissing,
    missingKeyHandler: (languages, namespace, key) => {
      if (typeof window !== 'undefined') (window.__i18nMissing ??= []).push(`${namespace}:${key} (${languages.join(', ')})`);
    },
  });

// The document's language follows the interface's, for screen readers and hyphenation.
const setDocumentLanguage = (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};
setDocumentLanguage(i18n.resolvedLanguage ?? 'en');
i18n.on('languageChanged', () => setDocumentLanguage(i18n.resolvedLanguage ?? 'en'));

/** The interface's language now (one of LANGUAGES), for Intl's dates and numbers. */
export function currentLanguage(): Language {
  return (i18n.resolvedLanguage ?? 'en') as Language;
}

export function formatDateTime(value: string | number | Date, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  return new Intl.DateTimeFormat(currentLanguage(), options).format(new Date(value));
}

export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(currentLanguage(), options).format(value);
}

export default i18n;

// The interface's messages (src/locales/<language>/<namespace>.json): every language has every
// namespace and key of English with a translation, the plural forms its language needs, and the
// same placeholders; every key the source asks for with t('…') exists in English.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('./src/', import.meta.url));
const LOCALES = join(SRC, 'locales');
const LANGUAGES = ['en', 'de', 'ja', 'pl'];

type Messages = Record<string, Record<string, unknown>>;
const messages: Record<string, Messages> = {};
for (const language of readdirSync(LOCALES)) {
  messages[language] = {};
  for (const file of readdirSync(join(LOCALES, language))) {
    messages[language][file.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(LOCALES, language, file), 'utf8')) as Record<string, unknown>;
  }
}

/** Every leaf as "a.b.c" → value (non-strings kept, to be reported). */
function flatten(tree: Record<string, unknown>, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of flatten(value as Record<string, unknown>, path)) out.set(k, v);
    else out.set(path, value);
  }
  return out;
}

const PLURAL = /^(.*?)(_ordinal)?_(zero|one|two|few|many|other)$/;

/** Keys with their plural forms folded: base key → { ordinal, forms: form → text }. */
function groups(tree: Record<string, unknown>) {
  const out = new Map<string, { ordinal: boolean; forms: Map<string, unknown> }>();
  for (const [key, value] of flatten(tree)) {
    const m = PLURAL.exec(key);
    const base = m ? m[1] : key;
    const entry = out.get(base) ?? { ordinal: !!m?.[2], forms: new Map() };
    entry.forms.set(m ? m[3] : '', value);
    out.set(base, entry);
  }
  return out;
}

const placeholders = (text: unknown) => [...new Set([...String(text).matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]))].sort();

describe('the message files', () => {
  it('are there for the four languages, with the same namespaces', () => {
    expect(Object.keys(messages).sort()).toEqual([...LANGUAGES].sort());
    const namespaces = Object.keys(messages.en).sort();
    expect(namespaces.length).toBeGreaterThanOrEqual(10);
    for (const language of LANGUAGES) expect(Object.keys(messages[language]).sort(), language).toEqual(namespaces);
  });

  for (const language of LANGUAGES) {
    it(`in ${language}: the keys of English, each with text, the plural forms of ${language} and English's placeholders`, () => {
      const problems: string[] = [];
      for (const [namespace, english] of Object.entries(messages.en)) {
        const theirs = groups(messages[language][namespace] ?? {});
        const ours = groups(english);
        for (const base of ours.keys()) if (!theirs.has(base)) problems.push(`${namespace}:${base} is missing`);
        for (const base of theirs.keys()) if (!ours.has(base)) problems.push(`${namespace}:${base} is not in English`);
        for (const [base, { ordinal, forms }] of theirs) {
          const english = ours.get(base);
          if (!english) continue;
          for (const [form, text] of forms) {
            if (typeof text !== 'string' || text.trim() === '') problems.push(`${namespace}:${base}${form && `_${form}`} is empty or not text`);
          }
          const plural = english.forms.has('other') || forms.has('other');
          if (plural) {
            if (forms.has('')) problems.push(`${namespace}:${base} has both a plain and plural forms`);
            const needed: string[] = new Intl.PluralRules(language, { type: ordinal ? 'ordinal' : 'cardinal' }).resolvedOptions().pluralCategories;
            const have = [...forms.keys()].filter((f) => f !== '');
            for (const form of needed) if (!have.includes(form)) problems.push(`${namespace}:${base} lacks the plural form "${form}" ${language} needs`);
            for (const form of have) if (!needed.includes(form)) problems.push(`${namespace}:${base} has a plural form "${form}" ${language} has not`);
          } else if (english.forms.has('other')) problems.push(`${namespace}:${base} is plural in English only`);
          const expected = placeholders([...english.forms.values()].join(' '));
          for (const [form, text] of forms) {
            const got = placeholders(text);
            // A plural form may leave the count out ("one trick" written as a word), nothing else.
            const missing = expected.filter((p) => !got.includes(p) && !(plural && p === 'count'));
            const extra = got.filter((p) => !expected.includes(p));
            if (missing.length || extra.length) problems.push(`${namespace}:${base}${form && `_${form}`}: placeholders ${JSON.stringify(got)}, English has ${JSON.stringify(expected)}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

// ---- the keys the source asks for

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'gql' || name === 'locales' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Whether English has `key` in `namespace`: a text, a plural group, or (for a key built at run time, `prefix`) an object. */
function englishHas(namespace: string, key: string, prefix: boolean): boolean {
  let node: unknown = messages.en[namespace];
  if (key === '') return prefix && node !== undefined; // `errors:${code}`: any key of the namespace
  const parts = key.split('.');
  for (let i = 0; i < parts.length; i++) {
    if (node === null || typeof node !== 'object') return false;
    const tree = node as Record<string, unknown>;
    const last = i === parts.length - 1;
    if (last && !prefix && typeof tree[parts[i]] !== 'object') {
      return typeof tree[parts[i]] === 'string' || Object.keys(tree).some((k) => PLURAL.test(k) && PLURAL.exec(k)![1] === parts[i]);
    }
    node = tree[parts[i]];
  }
  return prefix ? node !== null && typeof node === 'object' : false;
}

/** The t('…') calls of a file: the translator of useTranslation (`t`, or renamed as `{ t: tr }`) and i18n.t. */
export function keysUsed(text: string): { namespaces: string[]; calls: { key: string; prefix: boolean; explicit: boolean; global: boolean }[] } {
  const namespaces = [...text.matchAll(/useTranslation\(\s*(?:\[\s*)?(?:'([\w-]+)')?/g)].map((m) => m[1] ?? 'common');
  const translators = new Set(['t', ...[...text.matchAll(/\{\s*t\s*:\s*(\w+)\s*[,}]/g)].map((m) => m[1])]);
  const calls: { key: string; prefix: boolean; explicit: boolean; global: boolean }[] = [];
  for (const m of text.matchAll(/(?<![\w.])((?:i18n\.)?\w+)\(\s*(['"`])((?:(?!\2)[^\\]|\\.)*)\2/g)) {
    const callee = m[1];
    const global = callee === 'i18n.t';
    if (!global && !translators.has(callee)) continue;
    let key = m[3];
    let prefix = false;
    if (m[2] === '`' && key.includes('${')) {
      key = key.slice(0, key.indexOf('${')).replace(/\.$/, '');
      prefix = true;
    }
    calls.push({ key, prefix, explicit: key.includes(':'), global });
  }
  return { namespaces, calls };
}

describe('the keys the source uses', () => {
  it('finds the calls it checks (literal keys, renamed translators, keys built at run time)', () => {
    const sample = "const { t } = useTranslation('lobbies'); const { t: tr } = useTranslation('x'); t('a.b'); tr(`c.${d}`); i18n.t('game:e'); format('no');";
    expect(keysUsed(sample)).toEqual({
      namespaces: ['lobbies', 'x'],
      calls: [
        { key: 'a.b', prefix: false, explicit: false, global: false },
        { key: 'c', prefix: true, explicit: false, global: false },
        { key: 'game:e', prefix: false, explicit: true, global: true },
      ],
    });
    expect(englishHas('game', 'contract.hearts', false)).toBe(true);
    expect(englishHas('game', 'place', false)).toBe(true); // its ordinal plural forms
    expect(englishHas('game', 'contract', true)).toBe(true);
    expect(englishHas('game', 'contract', false)).toBe(false);
    expect(englishHas('game', 'contract.nothing', false)).toBe(false);
  });

  it('exist in English, in the namespace of the file’s useTranslation or the one the key names', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sources(SRC)) {
      const { namespaces, calls } = keysUsed(readFileSync(file, 'utf8'));
      for (const call of calls) {
        checked++;
        let candidates: [string, string][];
        if (call.explicit) {
          const [namespace, key] = call.key.split(/:(.*)/s);
          candidates = [[namespace, key]];
        } else if (call.global) candidates = [['common', call.key]];
        else candidates = (namespaces.length ? namespaces : ['common']).map((ns) => [ns, call.key]);
        if (!candidates.some(([ns, key]) => englishHas(ns, key, call.prefix))) missing.push(`${relative(SRC, file)}: ${call.key}${call.prefix ? '.*' : ''} (${candidates.map(([ns]) => ns).join(' or ')})`);
      }
    }
    expect(missing).toEqual([]);
    // The scan reads the client's calls, not none.
    expect(checked).toBeGreaterThan(300);
  });
});

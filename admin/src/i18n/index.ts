/**
 * Message catalogs: every text a screen shows comes from them, by key. i18n/en.json and i18n/de.json hold what
 * the frame and shared components say; each area of screens has its own file, i18n/<language>/<area>.json, whose
 * keys are under the area's name (i18n/en/orders.json's `title` is `orders.title`). The language
 * is the signed-in staff user's locale (`de_DE` → German), before sign-in the browser's; English fills any gap.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import de from './de.json';

type Catalog = Record<string, unknown>;
const areas = import.meta.glob<Catalog>('./*/*.json', { eager: true, import: 'default' });

function catalog(lang: string, core: Catalog): Catalog {
  const out: Catalog = { ...core };
  for (const [file, messages] of Object.entries(areas)) {
    const m = /^\.\/([a-z]+)\/([A-Za-z0-9-]+)\.json$/.exec(file);
    if (m && m[1] === lang) out[m[2]] = messages;
  }
  return out;
}

export const LANGUAGES = ['en', 'de'] as const;

export function languageOf(locale: string | undefined): string {
  const lang = (locale ?? '').slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(lang) ? lang : 'en';
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: catalog('en', en) }, de: { translation: catalog('de', de) } },
  lng: languageOf(navigator.language),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

export function setLanguage(locale: string | undefined): void {
  const lang = languageOf(locale);
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
}

/** Amounts and dates in the interface language. */
export function formatMoney(amount: string | number | undefined, currency = 'USD'): string {
  if (amount === undefined || amount === null || amount === '') return '';
  return new Intl.NumberFormat(i18n.language, { style: 'currency', currency }).format(Number(amount));
}
export function formatDate(iso: string | undefined, withTime = true): string {
  if (!iso) return '';
  const d = new Date(iso);
  return withTime
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(d)
    : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(d);
}
export function formatNumber(n: number | string | undefined): string {
  if (n === undefined || n === '') return '';
  return new Intl.NumberFormat(i18n.language).format(Number(n));
}

export default i18n;

/**
 * The language of the backend's own pages, from the browser's Accept-Language: the first language
 * (by the browser's order of preference) the element also speaks, else English. The same
 * languages as the element's; each file beside this one holds one.
 */
import { isRightToLeft, type LanguageCode, languageOf } from '../../../../../contract/languages.js';
import { ar } from './ar.js';
import { cs } from './cs.js';
import { de } from './de.js';
import { en, type PageWords } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { he } from './he.js';
import { it } from './it.js';
import { kk } from './kk.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { pt } from './pt.js';
import { ro } from './ro.js';
import { ru } from './ru.js';
import { tr } from './tr.js';
import { uk } from './uk.js';

export type { PageWordKey, PageWords } from './en.js';

const WORDS: Record<LanguageCode, PageWords> = {
  en,
  ru,
  uk,
  de,
  fr,
  es,
  it,
  pt,
  pl,
  tr,
  nl,
  cs,
  ro,
  kk,
  ar,
  he,
};

export interface PageLanguage {
  /** The `lang` of the page. */
  lang: string;
  dir: 'ltr' | 'rtl';
  words: PageWords;
}

/** `de-CH,de;q=0.9,en;q=0.8` → German; a header with nothing we speak (or none) → English. */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: languageOf(tag), q: q ? Number(q) : 1, index };
    })
    .filter((l) => l.q > 0 && l.lang)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const lang = ranked[0]?.lang ?? 'en';
  return { lang, dir: isRightToLeft(lang) ? 'rtl' : 'ltr', words: WORDS[lang] };
}

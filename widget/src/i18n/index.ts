/** Languages, message templates and amount formatting. */

export {
  isRightToLeft,
  LANGUAGES,
  type LanguageCode,
  languageOf,
} from '../../../contract/languages.js';
export { formatAmount } from './amount.js';
export { en, type StringKey, type Strings } from './en.js';
export { fill } from './fill.js';
export { loadLanguage } from './load.js';
export { checkStrings, type StringProblem, withOverrides } from './strings.js';

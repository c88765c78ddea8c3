/**
 * What a billing address may hold, country by country: one table for the element (which checks
 * as the shopper types) and the backend (which checks again, and checks a merchant-sent customer
 * the same way). Data only, small enough to ride in the element's one script.
 *
 * Sources: ISO 3166-1 (the 249 officially assigned alpha-2 codes); postal-code formats after
 * Google's address data (libaddressinput), for the countries shoppers of this gateway family
 * most often pay from; the gateway family's sale fields (`zip_code` at most 10 characters,
 * `state` two letters, "required for US/CA/AU": notes/gateway-facts.md 1.3).
 */

/** The 249 ISO 3166-1 alpha-2 codes, in one string to keep the script small. */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR ' +
  'BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ ' +
  'EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW ' +
  'GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY ' +
  'KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV ' +
  'MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY ' +
  'QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG ' +
  'TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** Whether `code` is one of the 249 (capitals only). */
export const isCountryCode = (code: string): boolean => COUNTRY_CODES.includes(code);

/**
 * The country codes whose bit is set in `bits`: one bit per pair of capitals AA..ZZ, bit i of
 * byte i >> 3 (base64) for the pair number i = 26 × first + second. The element's one script
 * carries its lists of codes so: a list of two-letter codes compresses badly (about 3 B of
 * gzip a code), a bitmap holds any number of them in at most 114 characters.
 */
export const codesOf = (bits: string): string[] => {
  const bytes = atob(bits);
  return [...Array(bytes.length * 8).keys()]
    .filter((i) => (bytes.charCodeAt(i >> 3) >> (i & 7)) & 1)
    .map((i) => String.fromCharCode(65 + i / 26, 65 + (i % 26)));
};

/**
 * Countries whose addresses have no postal code: the element does not ask for one, and a missing
 * `zipCode` is no error there (a typed one is kept, within the gateway's 10 characters). As a
 * bitmap (codesOf; test/contract/address.test.ts holds the list written out):
 * AE AG AO AW BF BI BJ BO BS BW BZ CD CF CG CI CK CM DJ DM ER FJ GA GD GH GM GQ GY HK KI KM KN
 * KP LY ML MO MR MW NR NU QA RW SB SC SL SR ST SY TD TF TG TK TL TO TV UG VU YE ZW.
 */
export const NO_POSTAL_CODE: readonly string[] = codesOf(
  'UEBAgAwRiVYBAIAEAAAAAgAIAJAIERAAAQAAAAAAAAAAEAsAAABAAEhCAABIAAAAAAAAAAEAAAAAAGGAoBAaEwhAAAAAAEAAAAAAAAAAEAAAAAAAAQ==',
);

/**
 * The postal-code format of the countries that have a common one, as a whole-string pattern
 * (case-insensitive: the backend sends it in capitals). Any other country takes 1-10 letters,
 * digits, spaces or hyphens.
 */
export const POSTAL_CODE_FORMATS: Readonly<Record<string, string>> = {
  AT: '\\d{4}',
  AU: '\\d{4}',
  BE: '\\d{4}',
  BG: '\\d{4}',
  BR: '\\d{5}-?\\d{3}',
  CA: '[ABCEGHJ-NPRSTVXY]\\d[ABCEGHJ-NPRSTV-Z] ?\\d[ABCEGHJ-NPRSTV-Z]\\d',
  CH: '\\d{4}',
  CY: '\\d{4}',
  CZ: '\\d{3} ?\\d{2}',
  DE: '\\d{5}',
  DK: '\\d{4}',
  EE: '\\d{5}',
  ES: '\\d{5}',
  FI: '\\d{5}',
  FR: '\\d{2} ?\\d{3}',
  GB: 'GIR ?0AA|[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}',
  GR: '\\d{3} ?\\d{2}',
  HR: '\\d{5}',
  HU: '\\d{4}',
  IE: '([AC-FHKNPRTV-Y]\\d{2}|D6W) ?[\\dAC-FHKNPRTV-Y]{4}',
  IL: '\\d{5}(\\d{2})?',
  IN: '\\d{6}',
  IT: '\\d{5}',
  JP: '\\d{3}-?\\d{4}',
  KZ: '\\d{6}',
  LT: '(LT-)?\\d{5}',
  LU: '\\d{4}',
  LV: '(LV-)?\\d{4}',
  MX: '\\d{5}',
  NL: '\\d{4} ?[A-Z]{2}',
  NO: '\\d{4}',
  NZ: '\\d{4}',
  PL: '\\d{2}-\\d{3}',
  PT: '\\d{4}-\\d{3}',
  RO: '\\d{6}',
  RS: '\\d{5,6}',
  RU: '\\d{6}',
  SA: '\\d{5}(-\\d{4})?',
  SE: '\\d{3} ?\\d{2}',
  SI: '\\d{4}',
  SK: '\\d{3} ?\\d{2}',
  TR: '\\d{5}',
  UA: '\\d{5}',
  US: '\\d{5}(-\\d{4})?',
};

/** Whether `zipCode` fits `country`'s format (or the general 1-10 characters where it has none). */
export function postalCodeFits(country: string, zipCode: string): boolean {
  const format = POSTAL_CODE_FORMATS[country] ?? '[A-Z\\d][A-Z\\d -]{0,9}';
  return zipCode.length <= 10 && new RegExp(`^(${format})$`, 'i').test(zipCode.trim());
}

/** Countries whose sale needs `state` (two letters), per the gateway family. */
export const STATE_COUNTRIES: readonly string[] = ['US', 'CA', 'AU'];

/**
 * ISO 4217 active alphabetic codes and their minor-unit exponents. Most currencies have 2
 * decimals; the exceptions are listed by exponent. A code absent from every list is unknown.
 */
const EXPONENT_0 = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const EXPONENT_3 = 'BHD IQD JOD KWD LYD OMR TND';
const EXPONENT_4 = 'CLF UYW';
const EXPONENT_2 = [
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN',
  'BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP',
  'GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK',
  'LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK',
  'NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD',
  'SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG',
  'YER ZAR ZMW ZWG ZWL',
].join(' ');

const EXPONENTS: ReadonlyMap<string, number> = new Map(
  (
    [
      [EXPONENT_0, 0],
      [EXPONENT_2, 2],
      [EXPONENT_3, 3],
      [EXPONENT_4, 4],
    ] as const
  ).flatMap(([codes, exponent]) => codes.split(' ').map((code) => [code, exponent] as const)),
);

/** The number of decimals of an ISO 4217 code (`EUR` 2, `JPY` 0, `KWD` 3), or undefined. */
export function currencyExponent(currency: string): number | undefined {
  return EXPONENTS.get(currency);
}

export function isKnownCurrency(currency: string): boolean {
  return EXPONENTS.has(currency);
}

/** Every code `isKnownCurrency` takes, with `exponent` decimals when given (for documents). */
export function knownCurrencies(exponent?: number): string[] {
  return [...EXPONENTS]
    .filter(([, e]) => exponent === undefined || e === exponent)
    .map(([code]) => code)
    .sort();
}

/**
 * A state or province as the gateway takes it: two letters (gateway-facts 1.3, `state`, "required
 * for US/CA/AU"). Shoppers and browsers also write the name: a browser's autofill puts what the
 * shopper's saved address holds into the element's state field, often "California" rather than
 * "CA". In the US and Canada the code must be one of theirs, or the name is read here (USPS and
 * Canada Post codes, Canada's names in English and French), accents, case and punctuation aside; the element carries no such table
 * (its size budget), so it sends what was typed and shows the backend's answer on the field.
 * Australia's states have three-letter abbreviations (NSW, VIC) the gateway's two letters cannot
 * hold, so there only two letters are taken, as typed (docs/gateway.md says so).
 */

const NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  US: {
    AL: 'Alabama',
    AK: 'Alaska',
    AZ: 'Arizona',
    AR: 'Arkansas',
    CA: 'California',
    CO: 'Colorado',
    CT: 'Connecticut',
    DE: 'Delaware',
    DC: 'District of Columbia|Washington DC|Washington D C',
    FL: 'Florida',
    GA: 'Georgia',
    HI: 'Hawaii',
    ID: 'Idaho',
    IL: 'Illinois',
    IN: 'Indiana',
    IA: 'Iowa',
    KS: 'Kansas',
    KY: 'Kentucky',
    LA: 'Louisiana',
    ME: 'Maine',
    MD: 'Maryland',
    MA: 'Massachusetts',
    MI: 'Michigan',
    MN: 'Minnesota',
    MS: 'Mississippi',
    MO: 'Missouri',
    MT: 'Montana',
    NE: 'Nebraska',
    NV: 'Nevada',
    NH: 'New Hampshire',
    NJ: 'New Jersey',
    NM: 'New Mexico',
    NY: 'New York',
    NC: 'North Carolina',
    ND: 'North Dakota',
    OH: 'Ohio',
    OK: 'Oklahoma',
    OR: 'Oregon',
    PA: 'Pennsylvania',
    RI: 'Rhode Island',
    SC: 'South Carolina',
    SD: 'South Dakota',
    TN: 'Tennessee',
    TX: 'Texas',
    UT: 'Utah',
    VT: 'Vermont',
    VA: 'Virginia',
    WA: 'Washington',
    WV: 'West Virginia',
    WI: 'Wisconsin',
    WY: 'Wyoming',
    AS: 'American Samoa',
    GU: 'Guam',
    MP: 'Northern Mariana Islands',
    PR: 'Puerto Rico',
    VI: 'Virgin Islands|U S Virgin Islands|US Virgin Islands',
    AA: 'Armed Forces Americas',
    AE: 'Armed Forces Europe',
    AP: 'Armed Forces Pacific',
  },
  CA: {
    AB: 'Alberta',
    BC: 'British Columbia|Colombie-Britannique',
    MB: 'Manitoba',
    NB: 'New Brunswick|Nouveau-Brunswick',
    NL: 'Newfoundland and Labrador|Newfoundland|Terre-Neuve-et-Labrador',
    NS: 'Nova Scotia|Nouvelle-Écosse',
    NT: 'Northwest Territories|Territoires du Nord-Ouest',
    NU: 'Nunavut',
    ON: 'Ontario',
    PE: 'Prince Edward Island|Île-du-Prince-Édouard',
    QC: 'Quebec',
    SK: 'Saskatchewan',
    YT: 'Yukon',
  },
};

/** "Île-du-Prince-Édouard" and "ile du prince edouard" alike: no accents, case or punctuation. */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.,']/g, ' ')
    .replace(/[\s-]+/g, ' ')
    .trim();

/** Per country, a folded code or name → its code. */
const CODES = new Map(
  Object.entries(NAMES).map(([country, names]) => [
    country,
    new Map(
      Object.entries(names).flatMap(([code, written]) =>
        [code, ...written.split('|')].map((name) => [folded(name), code] as const),
      ),
    ),
  ]),
);

/**
 * The two-letter code of `state` in `country`: in the US and Canada, one of their codes, or the
 * code of the state or province so named; elsewhere two letters as they are (in capitals).
 * Undefined when it is none of these.
 */
export function stateCode(country: string | undefined, state: string): string | undefined {
  const codes = CODES.get(country ?? '');
  if (codes) return codes.get(folded(state));
  const text = state.trim();
  return /^[a-z]{2}$/i.test(text) ? text.toUpperCase() : undefined;
}

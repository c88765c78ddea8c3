/** What a payment knows of the shopper's browser from the HTTP request itself (http/request-facts.ts). */

/** What the backend takes from the HTTP request itself, not from the JSON body. */
export interface BrowserRequestFacts {
  ip: string;
  acceptHeader: string;
  userAgent: string;
  /** The merchant page's exact origin, already checked against ALLOWED_ORIGINS. */
  origin: string | null;
}

/**
 * The one error base class of the server side. Every module throws a subclass with a stable,
 * machine-readable `code`; messages are for people and never carry secrets or card data.
 */
export class PayCheckoutError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

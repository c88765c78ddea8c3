/** Types of generate-merchant-client.mjs for the TypeScript tests that import it. */
export function generateMerchantClient(input: string, output: string): Promise<void>;

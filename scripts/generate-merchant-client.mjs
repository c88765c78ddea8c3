/**
 * Generates the TypeScript client of the merchant API from its OpenAPI document with
 * @hey-api/openapi-ts (fetch client, SDK functions, types), untouched:
 *
 *   node scripts/generate-merchant-client.mjs DOCUMENT.json OUTPUT_DIR
 *
 * test/server/client/generated-client.test.ts generates it again from the live document and
 * compares it with the copy committed under test/support/generated-merchant-client/, which the
 * merchant journey there uses: a change to the API that the copy lacks fails the test until this
 * is run again (`npm run generate:client`).
 */
import './typescript-5-hook.mjs';

export async function generateMerchantClient(input, output) {
  const { createClient } = await import('@hey-api/openapi-ts');
  await createClient({
    input,
    output: { path: output, importFileExtension: '.js' },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node scripts/generate-merchant-client.mjs DOCUMENT.json OUTPUT_DIR');
    process.exit(2);
  }
  await generateMerchantClient(input, output);
}

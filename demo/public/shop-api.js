// The shop's browser side talks only to the shop's own server (demo/server.ts), which holds the
// merchant API key and calls the merchant API for it.

export async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  return { ok: response.ok, status: response.status, data };
}

/** A merchant API operation by its demo name (demo/server.ts OPERATIONS). */
export function operation(name, params = {}, body = undefined) {
  return api(`/demo/api/operation/${name}`, { params, body });
}

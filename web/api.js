// The JSON API (docs/api.md). A failed request throws an Error whose message is the
// server's one line.
export async function api(path, params) {
  const query = params ? new URLSearchParams(params).toString() : '';
  const response = await fetch(query ? `${path}?${query}` : path);
  if (!response.ok) {
    const text = (await response.text()).trim();
    throw new Error(text || `${response.status} ${response.statusText}`);
  }
  return response.json();
}

// Only the parameters with a value, so URLs stay short.
export function compact(params) {
  const out = {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '' && value !== false) out[name] = String(value);
  }
  return out;
}

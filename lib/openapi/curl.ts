// The copy-and-paste curl command of each operation (`x-codeSamples`, which Scalar shows beside
// its generated snippets). Credentials come from shell variables, never from the document.

const AUTHORIZATION = {
  merchant: 'Authorization: Bearer $API_KEY:$API_SECRET',
  operator: 'Authorization: Bearer $ADMIN_API_TOKEN',
  none: undefined,
} as const;

interface CurlOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  auth: keyof typeof AUTHORIZATION;
  headers?: string[];
  body?: unknown;
  label?: string;
}

export function curlSample(baseUrl: string, options: CurlOptions) {
  const lines = [`curl -X ${options.method} "${baseUrl}${options.path}"`];
  const authorization = AUTHORIZATION[options.auth];
  if (authorization) lines.push(`-H "${authorization}"`);
  for (const header of options.headers ?? []) lines.push(`-H "${header}"`);
  if (options.body !== undefined) {
    const json = JSON.stringify(options.body, null, 2);
    // The body goes between single quotes: one inside it would end the shell word.
    if (json.includes("'")) throw new Error(`curl sample for ${options.path}: the body must not contain a single quote`);
    lines.push('-H "Content-Type: application/json"', `-d '${json}'`);
  }
  return { lang: 'shell', label: options.label ?? 'curl', source: lines.join(' \\\n  ') };
}

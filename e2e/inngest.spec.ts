import { createHmac } from 'node:crypto';
import http from 'node:http';
import { expect, INNGEST_STUB, SHORT_LIVED_URL, test } from './fixtures';
import { INNGEST_FUNCTION_IDS, REGISTERED_FUNCTION_IDS, registeredFunctionId } from '../lib/inngest/function-ids';

// /api/inngest on the production build, as Inngest uses it: PUT registers the functions with
// Inngest's API (a stub on loopback here), GET and POST answer only requests Inngest signed.

const received: { path: string; body: string }[] = [];
const stub = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    received.push({ path: req.url ?? '', body });
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true,"modified":true}');
  });
});
test.beforeAll(() => new Promise<void>((resolve) => stub.listen(INNGEST_STUB.port, '127.0.0.1', resolve)));
test.afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())));

/** Inngest's request signature: HMAC-SHA256 of body + timestamp with the key's secret part. */
function signature(body: string): string {
  const ts = Math.floor(Date.now() / 1000).toString();
  const key = INNGEST_STUB.signingKey.replace(/^signkey-\w+-/, '');
  return `t=${ts}&s=${createHmac('sha256', key).update(body + ts).digest('hex')}`;
}

test('PUT registers every function; GET and POST answer only signed requests', async ({ request }) => {
  const put = await request.put(`${SHORT_LIVED_URL}/api/inngest`);
  expect(put.status()).toBe(200);
  const registration = received.find((r) => r.path.startsWith('/fn/register'));
  const { functions, url } = JSON.parse(registration!.body) as { functions: { id: string }[]; url: string };
  const expected = REGISTERED_FUNCTION_IDS;
  expect(functions.map((f) => f.id).sort()).toEqual(expected);
  expect(url).toBe(`${SHORT_LIVED_URL}/api/inngest`);

  expect((await request.get(`${SHORT_LIVED_URL}/api/inngest`)).status()).toBe(401);
  const signedGet = await request.get(`${SHORT_LIVED_URL}/api/inngest`, { headers: { 'X-Inngest-Signature': signature('') } });
  expect(signedGet.status()).toBe(200);
  expect(await signedGet.json()).toMatchObject({ function_count: expected.length, mode: 'cloud' });

  const post = await request.post(`${SHORT_LIVED_URL}/api/inngest?fnId=${registeredFunctionId(INNGEST_FUNCTION_IDS.sendWebhook)}&stepId=step`, { data: {} });
  expect(post.status()).toBe(401);
});

// Inngest's endpoint: GET describes the functions, PUT registers them, POST runs a step. Without
// Inngest configured (the in-process mode of docs/operations.md) there is nothing to serve: a
// JSON 404, not the 500 Inngest's handler gives when it has no signing key.
import { serve } from 'inngest/next';
import { ApiError } from '@/lib/api/errors';
import { withApi } from '@/lib/api/handler';
import { inngest, inngestConfigured } from '@/lib/inngest/client';
import { functions } from '@/lib/inngest';

const handlers = serve({ client: inngest, functions });
const notConfigured = withApi(async () => {
  throw new ApiError('not_found', 'Inngest is not configured on this deployment');
});

type Handler = (typeof handlers)['GET'];
const whenConfigured =
  (handler: Handler): Handler =>
  (...args) =>
    inngestConfigured() ? handler(...args) : (notConfigured(args[0] as Request, { params: Promise.resolve({}) }) as ReturnType<Handler>);

export const GET = whenConfigured(handlers.GET);
export const POST = whenConfigured(handlers.POST);
export const PUT = whenConfigured(handlers.PUT);

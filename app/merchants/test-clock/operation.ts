// GET, POST and DELETE /merchants/test-clock (extension, docs/billing.md#test-clocks), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { advanceTestClockBodySchema, testClockSchema } from '@/lib/billing/schemas';
import { testClocksAvailable } from '@/lib/clock';
import { SHARED_LIMIT } from '@/lib/openapi/components';
import { IDS } from '@/lib/openapi/examples';

const ADVANCE_EXAMPLE = { advanceTo: '2027-01-15T12:00:00Z' };

const CLOCK_EXAMPLE = {
  status: 'ready',
  frozenTime: '2027-01-15T12:00:00.000Z',
  lastAdvance: {
    from: '2026-12-01T15:00:00.000Z',
    to: '2027-01-15T12:00:00.000Z',
    steps: 3,
    approved: 1,
    declined: 1,
    error: 0,
    pending: 0,
    transactionIds: [IDS.transaction],
    cancelledPlanIds: [],
    renewalLinks: { issued: 0, reminded: 0, expired: 0 },
    trialNotices: 0,
    plans: [{ subscriptionPlanId: IDS.plan, externalReference: 'order-1001', status: 'ACTIVE', nextChargeDate: '2027-01-16T15:00:00.000Z' }],
  },
};

// As if it did not exist in production, like the operator's test clock.
const unavailable = () =>
  !testClocksAvailable() && 'Test clocks exist only in development and sandbox deployments (SANDBOX_DEPLOYMENT=1)';

const ONLY_SANDBOX = 'Development and sandbox deployments only: a production deployment answers `404`.';

export const GET = operation({
  method: 'GET',
  path: '/merchants/test-clock',
  operationId: 'getTestClock',
  summary: 'Show your test clock',
  tag: 'Test clocks',
  auth: 'merchant',
  limit: 'merchant',
  description: `Extension (docs/billing.md#test-clocks). Where your clock stands and what its last advance did; \`real_time\` when you have none. ${ONLY_SANDBOX}\n\n${SHARED_LIMIT}`,
  unavailable,
  replies: { 200: { description: 'Your test clock', body: { schema: testClockSchema, example: CLOCK_EXAMPLE } } },
  errors: ['unauthorized', 'not_found', 'rate_limited', 'internal_error'],
  sample: { path: '/merchants/test-clock' },
});

export const POST = operation({
  method: 'POST',
  path: '/merchants/test-clock',
  operationId: 'advanceTestClock',
  summary: 'Advance your test clock',
  tag: 'Test clocks',
  auth: 'merchant',
  limit: 'merchant',
  description: [
    `Extension (docs/billing.md#test-clocks). Moves your clock to \`advanceTo\` and runs, for your plans only, everything due on the way, each at the time it fell due: ` +
      'renewals and their retries, trial ends and their notices, renewal links and their reminders, the ends of grace, scheduled price changes. ' +
      'The reply comes when the advance is done. Your clock then stays frozen there: plans you create and payments your customers make are dated on it; webhooks are sent and signed in real time, the dates in their bodies on your clock.',
    '',
    '`advanceTo` may not be before your clock (it moves only forward) nor more than 2 years from now: both a `400` naming why. ' +
      'A second advance while one runs is a `409`; try again when it finishes. ' + ONLY_SANDBOX,
    '',
    SHARED_LIMIT,
  ].join('\n'),
  unavailable,
  body: { schema: advanceTestClockBodySchema, required: true, example: ADVANCE_EXAMPLE },
  replies: { 200: { description: 'Your clock after the advance, and what it did', body: { schema: testClockSchema, example: CLOCK_EXAMPLE } } },
  errors: ['invalid_request', 'unauthorized', 'not_found', 'conflict', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error'],
  sample: { path: '/merchants/test-clock', body: ADVANCE_EXAMPLE },
});

export const DELETE = operation({
  method: 'DELETE',
  path: '/merchants/test-clock',
  operationId: 'deleteTestClock',
  summary: 'Return to real time',
  tag: 'Test clocks',
  auth: 'merchant',
  limit: 'merchant',
  description: `Extension (docs/billing.md#test-clocks). Deletes your test clock: plans you create from now on live in real time (existing plans keep their dates). A \`409\` while an advance runs. ${ONLY_SANDBOX}\n\n${SHARED_LIMIT}`,
  unavailable,
  replies: { 200: { description: 'Real time again', body: { schema: testClockSchema, example: { status: 'real_time', frozenTime: null, lastAdvance: null } } } },
  errors: ['unauthorized', 'not_found', 'conflict', 'rate_limited', 'internal_error'],
  sample: { path: '/merchants/test-clock' },
});

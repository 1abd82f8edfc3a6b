// Inngest's endpoint: GET describes the functions, PUT registers them, POST runs a step.
import { serve } from 'inngest/next';
import { inngest } from '@/lib/inngest/client';
import { functions } from '@/lib/inngest';

export const { GET, POST, PUT } = serve({ client: inngest, functions });

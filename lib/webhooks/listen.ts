import { webhookHeaders } from './signature';

// `npm run webhooks:listen` (docs/webhooks.md#on-your-laptop): polls for new events and POSTs each,
// signed, to a local URL. The server's own deliveries are unchanged.

interface ListenOptions {
  appUrl: string;
  credentials: string;
  /** whsec_…, to sign what is forwarded. */
  secret: string;
  forwardTo: string;
  intervalMs?: number;
  /** Forward this many of the newest events already there at start. */
  replay?: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

interface ListedEvent {
  id: string;
  event: string;
  body: string;
}

const PAGE = 100;
/** Its own rate-limit bucket, apart from the merchant backend's calls. */
export const LISTEN_PATH = '/merchants/webhook-events/listen';
/** Far more than a poll can return. */
const SEEN_LIMIT = 5_000;

async function newestEvents(options: ListenOptions): Promise<ListedEvent[]> {
  const res = await fetch(`${options.appUrl}${LISTEN_PATH}?limit=${PAGE}`, {
    headers: { Authorization: `Bearer ${options.credentials}` },
    signal: options.signal,
  });
  if (!res.ok) throw new Error(`GET /merchants/webhook-events answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return ((await res.json()) as { data: ListedEvent[] }).data;
}

async function forwardEvent(event: ListedEvent, options: Pick<ListenOptions, 'secret' | 'forwardTo' | 'signal'>): Promise<string> {
  const started = performance.now();
  try {
    const res = await fetch(options.forwardTo, {
      method: 'POST',
      headers: webhookHeaders({ id: event.id, body: event.body }, options.secret),
      body: event.body,
      redirect: 'manual',
      signal: options.signal,
    });
    await res.arrayBuffer();
    return `${event.event} ${event.id} -> ${res.status} (${Math.round(performance.now() - started)} ms)`;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return `${event.event} ${event.id} -> failed: ${(error as Error).cause ?? (error as Error).message}`;
  }
}

/** Until `signal` aborts; events present at start are skipped (but `replay`). */
export async function listen(options: ListenOptions): Promise<void> {
  const log = options.log ?? console.log;
  const interval = options.intervalMs ?? 1000;
  const seen = new Set<string>();
  const remember = (id: string) => {
    seen.add(id);
    if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value!);
  };
  const existing = await newestEvents(options);
  const replay = existing.slice(0, options.replay ?? 0).reverse();
  for (const e of existing.slice(options.replay ?? 0)) remember(e.id);
  log(`Ready: forwarding ${options.appUrl}'s webhook events to ${options.forwardTo} (Ctrl+C to stop)`);
  let pending = replay;
  while (!options.signal?.aborted) {
    for (const event of pending) {
      remember(event.id);
      log(await forwardEvent(event, options));
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
    if (options.signal?.aborted) break;
    try {
      pending = (await newestEvents(options)).filter((e) => !seen.has(e.id)).reverse();
    } catch (error) {
      if (options.signal?.aborted) break;
      log(`poll failed, retrying: ${(error as Error).message}`);
      pending = [];
    }
  }
}

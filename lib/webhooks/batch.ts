// Deliveries under way at once share their database statements: a batch starts after the current
// turn, so replies that arrived together go together.

const MAX_BATCH = 100;

interface Call<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/** A failed batch is rerun item by item. */
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

/**
 * Group commit: calls that arrive while a batch is being written wait and go
 * into the next batch together, so one transaction (one fsync) serves many
 * writers. Nothing waits on a timer: a lone call is written on the next turn of
 * the event loop; batches only form when writes arrive faster than commits.
 */
export type BatchWriter<I, O> = (items: I[]) => Promise<Array<PromiseSettledResult<O>>>;

export function createGroupCommit<I, O>(
  write: BatchWriter<I, O>,
  options: { maxBatch: number; concurrency: number },
): (item: I) => Promise<O> {
  type Waiting = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  let active = 0;
  let scheduled = false;

  const settle = (batch: Waiting[], results: Array<PromiseSettledResult<O>>) => {
    batch.forEach((waiting, i) => {
      const result = results[i];
      if (result?.status === "fulfilled") waiting.resolve(result.value);
      else
        waiting.reject(
          result ? result.reason : new Error("The batch writer returned too few results"),
        );
    });
  };

  const pump = () => {
    scheduled = false;
    while (active < options.concurrency && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      active += 1;
      write(batch.map((w) => w.item))
        .then(
          (results) => settle(batch, results),
          (error: unknown) => batch.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          active -= 1;
          schedule();
        });
    }
  };

  // setImmediate runs after this turn's I/O callbacks, so every request that
  // arrived in the same turn joins the batch.
  const schedule = () => {
    if (scheduled || queue.length === 0 || active >= options.concurrency) return;
    scheduled = true;
    setImmediate(pump);
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}

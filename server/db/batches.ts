// Deleting many rows in short statements: a batch at a time until one is not full, or the server stops.

/** Runs `deleteBatch(batchSize)` until it deletes fewer than `batchSize` rows or `signal` is aborted; answers how many in all. */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>, { batchSize, signal }: { batchSize: number; signal?: AbortSignal | undefined }): Promise<number> {
  let deleted = 0;
  while (!signal?.aborted) {
    const count = await deleteBatch(batchSize);
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}

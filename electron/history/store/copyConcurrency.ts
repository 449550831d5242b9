// Copy workers' batches held at once in the process (CopySlots), by default: a setting's default
// (config/configSchema.ts) as much as the pool's, so it lives apart from the pool and its threads.

export const DEFAULT_COPY_CONCURRENCY = 4;

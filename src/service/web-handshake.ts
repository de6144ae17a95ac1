/** The first message of a browser worker, before the PathService protocol starts. */
export const WORKER_LOADED = { t: 'loaded' } as const;

/** Whether `data` is {@link WORKER_LOADED}. */
export function isLoaded(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { t?: unknown }).t === WORKER_LOADED.t;
}

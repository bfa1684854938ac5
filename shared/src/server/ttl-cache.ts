/**
 * Caches one value per key for `ttlMs` (0: no cache): organization settings change rarely. Callers that
 * miss the same key at once share one load, so a key that is cold or has just expired costs one read
 * under load, not one per message in flight; a failed load is not kept.
 */
export function ttlCache<T>(ttlMs: number, load: (key: string) => Promise<T>, now = Date.now) {
  // The settled promise is what is kept, so a hit hands it back without making another.
  const cache = new Map<string, { value: Promise<T>; expiresAt: number }>();
  const loading = new Map<string, Promise<T>>();
  return (key: string): Promise<T> => {
    const cached = cache.get(key);
    if (cached && cached.expiresAt > now()) return cached.value;
    if (ttlMs <= 0) return load(key);
    const shared = loading.get(key);
    if (shared) return shared;
    const loaded = load(key);
    loading.set(key, loaded);
    loaded.then(
      () => {
        loading.delete(key);
        cache.set(key, { value: loaded, expiresAt: now() + ttlMs });
      },
      () => loading.delete(key),
    );
    return loaded;
  };
}

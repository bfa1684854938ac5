/** Caches one value per key for `ttlMs` (0: no cache): organization settings change rarely. */
export function ttlCache<T>(ttlMs: number, load: (key: string) => Promise<T>, now = Date.now) {
  const cache = new Map<string, { value: T; expiresAt: number }>();
  return async (key: string): Promise<T> => {
    const cached = cache.get(key);
    if (cached && cached.expiresAt > now()) return cached.value;
    const value = await load(key);
    if (ttlMs > 0) cache.set(key, { value, expiresAt: now() + ttlMs });
    return value;
  };
}

/**
 * The roll-up cells this process has committed to, so known to exist: the next record's increments can
 * go to such a cell as an `update` of only the counters they change, not a merge of the whole cell.
 * Bounded, since cells are per day; the oldest is forgotten first.
 */
export function knownCells(limit = 10_000) {
  const paths = new Set<string>();
  return {
    has: (path: string): boolean => paths.has(path),
    add(path: string): void {
      if (paths.has(path)) return;
      if (paths.size >= limit) {
        const oldest = paths.values().next();
        if (!oldest.done) paths.delete(oldest.value);
      }
      paths.add(path);
    },
    forget(path: string): void {
      paths.delete(path);
    },
  };
}

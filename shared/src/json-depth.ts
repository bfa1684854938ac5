/**
 * The path to the first object or array nested deeper than `maxDepth` (the body itself is depth 1), or
 * undefined. Iterative, so a body nested thousands of levels deep cannot overflow the stack.
 */
export function tooDeepPath(value: unknown, maxDepth: number): Array<string | number> | undefined {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: Array<string | number> };
    if (current === null || typeof current !== "object") continue;
    if (path.length >= maxDepth) return path;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...path, i] });
    } else {
      for (const key of Object.keys(current).reverse()) {
        stack.push({ value: (current as Record<string, unknown>)[key], path: [...path, key] });
      }
    }
  }
  return undefined;
}

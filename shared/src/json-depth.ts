/**
 * The path to the first object or array nested deeper than `maxDepth` (the body itself is depth 1), or
 * undefined. Iterative, so a body nested thousands of levels deep cannot overflow the stack.
 */
export function tooDeepPath(value: unknown, maxDepth: number): Array<string | number> | undefined {
  return deeperThan(value, maxDepth) ? firstTooDeepPath(value, maxDepth) : undefined;
}

/**
 * The common case, answered without building paths or arrays: depths only, children that are not objects
 * skipped. Recursive, but never deeper than `maxDepth` calls, however deep the body is nested.
 */
function deeperThan(value: unknown, maxDepth: number, depth = 0): boolean {
  if (value === null || typeof value !== "object") return false;
  if (depth >= maxDepth) return true;
  if (Array.isArray(value)) {
    for (const child of value) {
      if (child !== null && typeof child === "object" && deeperThan(child, maxDepth, depth + 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === "object" && deeperThan(child, maxDepth, depth + 1)) return true;
  }
  return false;
}

function firstTooDeepPath(value: unknown, maxDepth: number): Array<string | number> | undefined {
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

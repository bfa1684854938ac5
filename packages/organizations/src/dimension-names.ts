/**
 * Declared context dimensions: the `context` keys an organization's reports group and filter on. Each one
 * multiplies the roll-up cells a busy day holds, so an organization declares a few, as a meter declares
 * its group-by keys.
 */
export const MAX_DIMENSIONS = 10;

/** Letters, digits, `_`, `-` and `.`: a name that reads unambiguously in `group_by=context.<name>` lists. */
export const DIMENSION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/** What is wrong with a list of dimension names, or null when it can be stored. */
export function dimensionListProblem(names: readonly string[]): string | null {
  if (names.length > MAX_DIMENSIONS) return `at most ${MAX_DIMENSIONS} dimensions can be declared`;
  const bad = names.find((name) => !DIMENSION_NAME.test(name));
  if (bad !== undefined) {
    return `dimension "${bad}" must be 1-64 letters, digits, "_", "-" or ".", starting with a letter, digit or "_"`;
  }
  // Firestore keeps field names of the form __name__ to itself: a record's cell could not hold one.
  const reserved = names.find((name) => /^__.*__$/.test(name));
  if (reserved !== undefined) return `dimension "${reserved}" has the form __name__, which Firestore reserves`;
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) return `dimension "${repeated}" is given twice`;
  return null;
}

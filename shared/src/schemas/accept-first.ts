import * as v from "valibot";
import { compileAccept, REJECTED } from "./compiled-accept.ts";

/** What `v.safeParse` answers, without the parts nobody here reads. */
export type Parsed<T> =
  | { success: true; output: T }
  | { success: false; issues: [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]] };

/**
 * `v.safeParse(schema, input, config)` with a valid input answered by the compiled schema
 * (`compileAccept`), at a fraction of Valibot's cost; Valibot itself still says what is wrong with an
 * invalid one. Compiled on first use. Where code cannot be generated at run time (a strict Content
 * Security Policy, some edge runtimes), Valibot answers every input.
 */
export function acceptFirst<TSchema extends v.GenericSchema>(
  schema: TSchema,
  config: v.Config<v.InferIssue<TSchema>>,
): (input: unknown) => Parsed<v.InferOutput<TSchema>> {
  let compiled: ((input: unknown) => v.InferOutput<TSchema> | typeof REJECTED) | null | undefined;
  return (input) => {
    if (compiled === undefined) {
      try {
        compiled = compileAccept(schema);
      } catch (error) {
        if (!(error instanceof EvalError)) throw error;
        compiled = null;
      }
    }
    const output = compiled ? compiled(input) : REJECTED;
    if (output !== REJECTED) return { success: true, output };
    const result = v.safeParse(schema, input, config);
    return result.success ? { success: true, output: result.output } : { success: false, issues: result.issues };
  };
}

import * as v from "valibot";
import { utf8ByteLength } from "../unicode.ts";

/** What a compiled schema returns for an input Valibot would not accept. */
export const REJECTED: unique symbol = Symbol("rejected");

/** The fields of Valibot's schema and action objects read here (they are plain data). */
interface Node {
  kind: "schema" | "validation" | "transformation" | "metadata";
  type: string;
  pipe?: Node[];
  entries?: Record<string, Node>;
  wrapped?: Node;
  item?: Node;
  options?: Node[] | unknown[];
  key?: string;
  literal?: unknown;
  default?: unknown;
  fallback?: unknown;
  requirement?: unknown;
  check?: (input: unknown) => boolean;
}

const ACTION_CONFIG = v.getGlobalConfig({ abortEarly: true, abortPipeEarly: true });
const OPTIONAL_TYPES = new Set(["optional", "exact_optional", "nullish"]);
/** Keys Valibot's objects treat specially, and which a generated property store must not meet. */
const SPECIAL_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/**
 * A second reading of a Valibot schema, for the one question the hot path asks of a valid input: what is
 * Valibot's output for it? The compiled function returns exactly that output (the same values, the same
 * keys in the same order, unknown keys dropped or kept as Valibot drops or keeps them) when Valibot would
 * accept the input, and REJECTED otherwise; it never says why. Callers run Valibot itself on a rejected
 * input for its issues, so Valibot stays the one definition of the rules and of their messages.
 *
 * The schema is turned into the source of one function (checks inline, properties stored by name), which
 * is what makes it fast; nothing from an input ever reaches that source, only the schema's own keys and
 * literals, written with JSON.stringify. Only the schema and action types our schemas use are compiled,
 * each following Valibot's own `~run`; anything else throws here, at start-up, rather than be guessed.
 * Validation actions without a compiled form (`rawCheck`, say) call Valibot's own `~run`.
 * `compiled-accept.test.ts` holds the compiled transaction schema to Valibot over generated inputs.
 */
export function compileAccept<TSchema extends v.GenericSchema>(
  schema: TSchema,
): (input: unknown) => v.InferOutput<TSchema> | typeof REJECTED {
  const generator = new Generator();
  const body = generator.emit(schema as unknown as Node, "input", "output");
  const source = `return function accept(input) {\nlet output;\n${body}\nreturn output;\n}`;
  return new Function("refs", "REJECTED", source)(generator.refs, REJECTED);
}

class Generator {
  readonly refs: unknown[] = [];
  private count = 0;

  /** A value the generated code reads from `refs` rather than from its source. */
  private ref(value: unknown): string {
    this.refs.push(value);
    return `refs[${this.refs.length - 1}]`;
  }

  private name(): string {
    return `v${this.count++}`;
  }

  /** Statements that judge the variable `input` and assign Valibot's output to `output`, or return REJECTED. */
  emit(node: Node, input: string, output: string): string {
    if (node.pipe) return this.pipe(node.pipe, input, output);
    switch (node.type) {
      case "string":
        return `if (typeof ${input} !== "string") return REJECTED;\n${output} = ${input};`;
      case "number":
        return `if (typeof ${input} !== "number" || ${input} !== ${input}) return REJECTED;\n${output} = ${input};`;
      case "literal":
        return `if (${input} !== ${literal(node.literal, node)}) return REJECTED;\n${output} = ${input};`;
      case "picklist":
        return `if (!${this.ref(node.options)}.includes(${input})) return REJECTED;\n${output} = ${input};`;
      case "custom":
        return `if (!${this.ref(node.check)}(${input})) return REJECTED;\n${output} = ${input};`;
      case "unknown":
      case "any":
        return `${output} = ${input};`;
      case "optional":
        if (node.default !== undefined) throw unsupported(node, "a default");
        return `if (${input} === undefined) ${output} = undefined;\nelse {\n${this.emit(node.wrapped as Node, input, output)}\n}`;
      case "array":
        return this.array(node, input, output);
      case "object":
      case "loose_object":
        return this.object(node, input, output);
      case "variant":
        return this.variant(node, input, output);
      default:
        throw unsupported(node);
    }
  }

  private pipe(pipe: Node[], input: string, output: string): string {
    const lines: string[] = [];
    let current = input;
    for (const item of pipe) {
      if (item.kind === "metadata") continue;
      if (item.kind === "schema") {
        const next = this.name();
        lines.push(`let ${next};`, this.emit(item, current, next));
        current = next;
      } else if (item.kind === "validation") {
        lines.push(`if (!(${this.requirement(item, current)})) return REJECTED;`);
      } else {
        throw unsupported(item);
      }
    }
    lines.push(`${output} = ${current};`);
    return lines.join("\n");
  }

  /** A validation action as an expression on a value its pipe has already typed. */
  private requirement(action: Node, input: string): string {
    const requirement = action.requirement;
    const bound = () => (typeof requirement === "number" ? String(requirement) : this.ref(requirement));
    switch (action.type) {
      case "min_length":
        return `${input}.length >= ${bound()}`;
      case "max_length":
        return `${input}.length <= ${bound()}`;
      case "max_bytes":
        // A UTF-16 code unit is at most 3 bytes in UTF-8: short text is within the bound uncounted.
        return `(${input}.length * 3 <= ${bound()} || ${this.ref(utf8ByteLength)}(${input}) <= ${bound()})`;
      case "min_value":
        return `${input} >= ${bound()}`;
      case "max_value":
        return `${input} <= ${bound()}`;
      case "finite":
      case "integer":
      case "check":
        return `${this.ref(requirement)}(${input})`;
      default:
        // Valibot's own run of the action, on the dataset its pipe would hand it.
        return `${this.ref(action)}["~run"]({ typed: true, value: ${input} }, ${this.ref(ACTION_CONFIG)}).issues === undefined`;
    }
  }

  private array(node: Node, input: string, output: string): string {
    const items = this.name();
    const index = this.name();
    const item = this.name();
    const accepted = this.name();
    return [
      `if (!Array.isArray(${input})) return REJECTED;`,
      `const ${items} = [];`,
      `for (let ${index} = 0; ${index} < ${input}.length; ${index}++) {`,
      `const ${item} = ${input}[${index}];`,
      `let ${accepted};`,
      this.emit(node.item as Node, item, accepted),
      `${items}.push(${accepted});`,
      "}",
      `${output} = ${items};`,
    ].join("\n");
  }

  private object(node: Node, input: string, output: string): string {
    const entries = node.entries as Record<string, Node>;
    const target = this.name();
    const lines = [`if (!${input} || typeof ${input} !== "object") return REJECTED;`, `const ${target} = {};`];
    for (const [key, schema] of Object.entries(entries)) {
      if (SPECIAL_KEYS.has(key)) throw unsupported(node, `the key ${key}`);
      if (schema.fallback !== undefined) throw unsupported(schema, "a fallback");
      const name = JSON.stringify(key);
      const value = this.name();
      const accepted = this.name();
      lines.push(
        `if (${name} in ${input}) {`,
        `const ${value} = ${input}[${name}];`,
        `let ${accepted};`,
        this.emit(schema, value, accepted),
        `${target}[${name}] = ${accepted};`,
        OPTIONAL_TYPES.has(schema.type) ? "}" : "} else return REJECTED;",
      );
    }
    if (node.type === "loose_object") {
      // As Valibot's looseObject: own keys that are not entries of the schema, none of the three it skips.
      const key = this.name();
      lines.push(
        `for (const ${key} in ${input}) {`,
        `if (Object.prototype.hasOwnProperty.call(${input}, ${key}) && ${key} !== "__proto__" && ${key} !== "prototype" && ${key} !== "constructor" && !Object.prototype.hasOwnProperty.call(${this.ref(entries)}, ${key})) ${target}[${key}] = ${input}[${key}];`,
        "}",
      );
    }
    lines.push(`${output} = ${target};`);
    return lines.join("\n");
  }

  /** A variant whose options are objects told apart by distinct literals under its key. */
  private variant(node: Node, input: string, output: string): string {
    const key = JSON.stringify(node.key);
    const seen = new Set<unknown>();
    const cases = (node.options as Node[]).map((option) => {
      const discriminator = option.entries?.[node.key as string];
      if (option.pipe || discriminator?.type !== "literal" || seen.has(discriminator.literal)) {
        throw unsupported(node, "an option that is not an object with its own literal under the key");
      }
      seen.add(discriminator.literal);
      return `case ${literal(discriminator.literal, node)}: {\n${this.emit(option, input, output)}\nbreak;\n}`;
    });
    return [
      `if (!${input} || typeof ${input} !== "object" || !(${key} in ${input})) return REJECTED;`,
      `switch (${input}[${key}]) {`,
      ...cases,
      "default: return REJECTED;",
      "}",
    ].join("\n");
  }
}

/** A literal as source; `===` then matches as Valibot's SameValueZero does (NaN is the one difference). */
function literal(value: unknown, node: Node): string {
  const ok =
    typeof value === "string" ||
    typeof value === "boolean" ||
    value === null ||
    (typeof value === "number" && Number.isFinite(value));
  if (!ok) throw unsupported(node, `the literal ${String(value)}`);
  return JSON.stringify(value);
}

const unsupported = (node: Node, what?: string) =>
  new Error(`compileAccept: a ${node.kind} of type "${node.type}"${what ? ` with ${what}` : ""} is not supported`);

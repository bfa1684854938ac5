import { readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import { parse } from "@cdktf/hcl2json";
import { type Hcl, INFRA, infraQuery, parseInfra } from "../infra/hcl.ts";

/**
 * The values Terraform gives the deployed services, read from infra/ as `terraform apply` would compute them
 * for the example environment with `terraform.tfvars.example` (and the root variables given): the
 * interpolations the modules use (`var.x`, `var.x.field` with an `optional(type, default)`, `tostring(...)`,
 * `var.flag ? "a" : "b"`,
 * `module.m.output`, `resource_type.name.attribute`, `local.name`) are followed through the module calls to
 * their literal values. Anything else is refused by name, so a new kind of expression is noticed.
 */

interface Scope {
  /** The Terraform folder under infra/: `envs/example`, `modules/gateway`. */
  folder: string;
  /** The module block that called this folder (absent at the root), and the caller's scope. */
  call?: Hcl;
  caller?: Scope;
}

const EXAMPLE = "envs/example";

export async function terraformValues(rootVariables: Record<string, unknown>) {
  const files = await parseInfra();
  const query = infraQuery(files);
  const tfvarsPath = join(INFRA, EXAMPLE, "terraform.tfvars.example");
  const tfvars: Hcl = { ...(await parse(tfvarsPath, readFileSync(tfvarsPath, "utf8"))), ...rootVariables };

  const variable = (scope: Scope, name: string): unknown => {
    if (scope.call && scope.caller && name in scope.call) return resolve(scope.call[name], scope.caller);
    if (!scope.call && name in tfvars) return tfvars[name];
    const declared = query.variable(scope.folder, name);
    if (declared.default === undefined) throw new Error(`var.${name} has no value in ${scope.folder}`);
    return declared.default;
  };

  /** `var.name.field`: the object's own field, or the `optional(type, default)` its type declares. */
  const field = (scope: Scope, name: string, key: string): unknown => {
    const value = variable(scope, name) as Record<string, unknown>;
    if (value && key in value) return value[key];
    const type = String(query.variable(scope.folder, name).type ?? "");
    const optional = new RegExp(`\\b${key}\\s*=\\s*optional\\(\\s*\\w+\\s*,\\s*([^)]+?)\\s*\\)`).exec(type);
    if (!optional) throw new Error(`var.${name}.${key} has no value in ${scope.folder}`);
    return JSON.parse(optional[1] as string);
  };

  const evaluate = (expression: string, scope: Scope): unknown => {
    const text = expression.trim();
    // `var.flag ? "a" : "b"`: a condition on a variable, between two literal strings.
    const choice = /^(\S+) \? "([^"]*)" : "([^"]*)"$/.exec(text);
    if (choice) return evaluate(choice[1] as string, scope) === true ? choice[2] : choice[3];
    const call = /^tostring\((.*)\)$/s.exec(text);
    if (call) return String(evaluate(call[1] as string, scope));
    const parts = text.split(".");
    if (parts[0] === "var" && parts.length === 2) return variable(scope, parts[1] as string);
    if (parts[0] === "var" && parts.length === 3) return field(scope, parts[1] as string, parts[2] as string);
    if (parts[0] === "local" && parts.length === 2)
      return resolve(query.local(scope.folder, parts[1] as string), scope);
    if (parts[0] === "module" && parts.length === 3) {
      const block = query.block(scope.folder, "module", parts[1] as string);
      const folder = normalize(join(scope.folder, block.source)).replaceAll("\\", "/");
      return resolve(query.output(folder, parts[2] as string).value, { folder, call: block, caller: scope });
    }
    if (/^[a-z0-9]+_[a-z0-9_]+$/.test(parts[0] as string) && parts.length === 3) {
      const resource = query.block(scope.folder, "resource", parts[0] as string, parts[1] as string);
      return resolve(resource[parts[2] as string], scope);
    }
    throw new Error(`cannot evaluate \${${text}} in ${scope.folder}`);
  };

  const resolve = (value: unknown, scope: Scope): unknown => {
    if (typeof value !== "string") return value;
    const whole = /^\$\{(.*)\}$/s.exec(value);
    if (whole && !(whole[1] as string).includes("${")) return evaluate(whole[1] as string, scope);
    return value.replace(/\$\{([^}]*)\}/g, (_, expression: string) => String(evaluate(expression, scope)));
  };

  const root: Scope = { folder: EXAMPLE };
  /** The scope of a module the example environment calls (`gateway`, `worker`). */
  const moduleScope = (name: string): Scope => {
    const call = query.exampleModule(name);
    return { folder: normalize(join(EXAMPLE, call.source)).replaceAll("\\", "/"), call, caller: root };
  };
  /** A local map of the called module with every value literal, as strings (environment variables). */
  const environment = (name: string, local = "environment"): Record<string, string> => {
    const scope = moduleScope(name);
    const values = query.local(scope.folder, local) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(resolve(value, scope))]));
  };
  return {
    query,
    environment,
    /** Any value of a block in a called module (a resource's attribute), resolved in that module. */
    inModule: (name: string, value: unknown) => resolve(value, moduleScope(name)),
    /** Any value of the example environment's own blocks (an output's value), resolved there. */
    atRoot: (value: unknown) => resolve(value, root),
    /** An output of the example environment. */
    output: (name: string) => query.output(EXAMPLE, name),
  };
}

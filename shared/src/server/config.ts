import * as v from "valibot";

/** Environment variables are parsed once at start-up; a bad value stops the process, naming the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export function integerVar(defaultValue: number, min = 1) {
  return v.pipe(
    v.optional(v.string(), String(defaultValue)),
    v.regex(/^\d+$/, "must be a whole number"),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(Number.MAX_SAFE_INTEGER, "is too large"),
  );
}

export const stringVar = (defaultValue: string) =>
  v.pipe(v.optional(v.string(), defaultValue), v.minLength(1, "must not be empty"));

/** GOOGLE_CLOUD_UNIVERSE_DOMAIN, as the Google clients read it: a domain such as `googleapis.com`. */
export const universeDomainVar = () =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
        "must be a domain such as googleapis.com",
      ),
    ),
  );

/** Which transport a Google call goes through: our own gRPC channel (`wire`) or the official client (`client`). */
export const TRANSPORTS = ["wire", "client"] as const;
export type Transport = (typeof TRANSPORTS)[number];
export const transportVar = () => v.optional(v.picklist(TRANSPORTS, 'must be "wire" or "client"'), "wire");

/** An http(s) base address (a vendor's API, or a proxy in front of it): scheme, host, optional port and path. */
export const baseUrlVar = (defaultValue: string) =>
  v.pipe(
    v.optional(v.string(), defaultValue),
    v.check((text) => {
      try {
        const url = new URL(text);
        return (url.protocol === "https:" || url.protocol === "http:") && !url.search && !url.hash && !url.username;
      } catch {
        return false;
      }
    }, "must be an http(s) base address such as https://api.openai.com, without query or credentials"),
  );

export const optionalStringVar = () => v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty")));

export function parseConfig<TSchema extends v.GenericSchema>(
  schema: TSchema,
  env: Record<string, string | undefined>,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, env);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => {
    const name = issue.path?.map((item) => String(item.key)).join(".") ?? "environment";
    return `${name} ${issue.message} (got ${JSON.stringify(issue.input)})`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
}

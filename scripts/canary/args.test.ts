import { describe, expect, it } from "vitest";
import { CanaryRefusal, parseCanaryArgs } from "./args.ts";

const refusalOf = (argv: string[], env: Record<string, string | undefined> = {}) => {
  try {
    parseCanaryArgs(argv, env);
  } catch (error) {
    if (error instanceof CanaryRefusal) return error.message;
    throw error;
  }
  throw new Error("the canary did not refuse");
};

describe("npm run canary's arguments", () => {
  it("take a project and a topic, with a database and a collection by default", () => {
    expect(parseCanaryArgs(["--project", "acme-prod", "--topic", "canary"], {})).toEqual({
      help: false,
      args: { project: "acme-prod", topic: "canary", database: "(default)", collection: "canary_runs" },
    });
    expect(
      parseCanaryArgs(["--topic", "canary", "--database", "records", "--collection", "runs"], {
        GOOGLE_CLOUD_PROJECT: "acme-prod",
      }),
    ).toEqual({
      help: false,
      args: { project: "acme-prod", topic: "canary", database: "records", collection: "runs" },
    });
  });

  it("answer --help without needing anything", () => {
    expect(parseCanaryArgs(["--help"], { FIRESTORE_EMULATOR_HOST: "localhost:8080" })).toEqual({ help: true });
  });

  it("say what they need when the project or the topic is missing", () => {
    expect(refusalOf([])).toMatch(/needs a project: --project or GOOGLE_CLOUD_PROJECT and a topic/);
    expect(refusalOf(["--project", "acme-prod"])).toMatch(/needs a topic it may publish to: --topic/);
    expect(refusalOf(["--topic", "t"])).toMatch(/needs a project/);
  });

  it("refuse unknown flags, values where none belong, and names that are not names", () => {
    expect(refusalOf(["--project", "acme-prod", "--topic", "t", "--force"])).toMatch(/--force/);
    expect(refusalOf(["--project", "acme-prod", "--topic", "t", "extra"])).toMatch(/extra/);
    expect(refusalOf(["--project", "Not A Project", "--topic", "t"])).toMatch(/--project must be a project id/);
    expect(refusalOf(["--project", "acme-prod", "--topic", "a/b"])).toMatch(/--topic must be a plain name/);
    expect(refusalOf(["--project", "acme-prod", "--topic", "t", "--database", "Bad!"])).toMatch(/--database/);
  });

  it.each(["PUBSUB_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST", "CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB"])(
    "refuse to run while %s points elsewhere than the real endpoints, naming it",
    (name) => {
      const message = refusalOf(["--project", "acme-prod", "--topic", "t"], { [name]: "localhost:8085" });
      expect(message).toMatch(/^refusing to run/);
      expect(message).toContain(name);
    },
  );
});

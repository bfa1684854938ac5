import { describe, expect, it } from "vitest";
import { splitOf } from "./split-by.ts";

describe("a connection's split", () => {
  it("is its mapping of the id both of the vendor's reports group by, to a declared dimension", () => {
    expect(splitOf("openai", { project_id: "team" }, ["team"])).toEqual({
      vendor_field: "project_id",
      dimension: "team",
    });
    expect(splitOf("anthropic", { api_key_id: "service", workspace_id: "team" }, ["team", "service"])).toEqual({
      vendor_field: "workspace_id",
      dimension: "team",
    });
  });

  it("is none for a key mapping alone, no mapping, or a dimension no longer declared", () => {
    expect(splitOf("openai", { api_key_id: "service" }, ["service"])).toBeUndefined();
    expect(splitOf("anthropic", {}, ["team"])).toBeUndefined();
    expect(splitOf("openai", { project_id: "team" }, ["feature"])).toBeUndefined();
  });
});

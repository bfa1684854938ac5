import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/lib/services.ts";

const README_MAX_LINES = 250;

/** README.md and every .md file under docs/, as paths relative to `root`. */
function documents(root: string): string[] {
  const found = ["README.md"];
  const walk = (folder: string) => {
    const entries = readdirSync(join(root, folder), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  if (existsSync(join(root, "docs"))) walk("docs");
  return found;
}

/** The text outside fenced code blocks, line by line (a fenced line becomes empty, so numbers hold). */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
      return "";
    }
    return fence === null ? line : "";
  });
}

/** A line without its inline code spans, so `[a](b)` written as code is not taken for a link. */
const withoutCodeSpans = (line: string) => line.replace(/(`+)(?:(?!\1).)+?\1/g, "``");

/**
 * GitHub's anchor for a heading: the rendered text (code spans and link texts kept, their markup
 * dropped), lowercased, every character that is not a letter, digit, space, hyphen or underscore
 * removed, spaces turned into hyphens; a repeated anchor gets -1, -2, ... as GitHub numbers them.
 */
function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a markdown document offers: its headings' slugs and any explicit `id`/`name`. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] ?? "");
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/** The relative links of a document: inline `[text](target)`, images, and reference definitions. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const inline = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
    for (const match of line.matchAll(inline)) links.push({ line: index + 1, target: match[1] ?? "" });
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition?.[1]) links.push({ line: index + 1, target: definition[1] });
  });
  return links.filter(({ target }) => !/^(?:https?:|mailto:)/i.test(target));
}

/** Every link of the documents under `root` that names a missing file, or a heading its target lacks. */
function brokenLinks(root: string): string[] {
  const broken: string[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    let anchors = anchorCache.get(path);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(path, "utf8"));
      anchorCache.set(path, anchors);
    }
    return anchors;
  };
  for (const document of documents(root)) {
    const source = join(root, document);
    for (const { line, target } of linksOf(readFileSync(source, "utf8"))) {
      const hashAt = target.indexOf("#");
      const pathPart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
      const anchor = hashAt === -1 ? "" : decodeURIComponent(target.slice(hashAt + 1));
      const where = `${document}:${line}: ${target}`;
      const resolved =
        pathPart === "" ? source : pathPart.startsWith("/") ? join(root, pathPart) : resolve(dirname(source), pathPart);
      if (relative(root, resolved).startsWith("..")) {
        broken.push(`${where} (points outside the repository)`);
      } else if (!existsSync(resolved)) {
        broken.push(`${where} (no such file: ${relative(root, resolved)})`);
      } else if (anchor !== "" && resolved.endsWith(".md") && !anchorsIn(resolved).has(anchor)) {
        broken.push(`${where} (no heading #${anchor} in ${relative(root, resolved)})`);
      }
    }
  }
  return broken;
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("the documentation's links", () => {
  it("resolve, from README.md and every page under docs/, to files that exist and headings they have", () => {
    expect(documents(REPO_ROOT).length).toBeGreaterThan(1);
    expect(brokenLinks(REPO_ROOT)).toEqual([]);
  });

  it("keep the README a newcomer's page", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(lineCount(readme)).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe("the link check itself", () => {
  it("makes GitHub's anchors", () => {
    expect(headingSlug("Retries and `transaction_id`")).toBe("retries-and-transaction_id");
    expect(headingSlug("Token counts: each vendor's own convention")).toBe("token-counts-each-vendors-own-convention");
    expect(headingSlug("`GET /usage/costs`")).toBe("get-usagecosts");
    expect(headingSlug("Publishing to Pub/Sub")).toBe("publishing-to-pubsub");
    expect(headingSlug("What is billed, at which rate")).toBe("what-is-billed-at-which-rate");
    expect([...anchorsOf("# A\n\n## A\n\n```\n# not a heading\n```\n")]).toEqual(["a", "a-1"]);
  });

  it("finds a missing file, a missing heading and a link out of the repository, and nothing in code", () => {
    const root = mkdtempSync(join(tmpdir(), "doc-links-"));
    try {
      mkdirSync(join(root, "docs", "decisions"), { recursive: true });
      writeFileSync(
        join(root, "README.md"),
        [
          "# Title",
          "[ok](docs/a.md#section-one) [ok](#title) [web](https://example.com/x.md) [mail](mailto:a@b.c)",
          "[gone](docs/missing.md) and `[code](docs/nowhere.md)`",
          "```",
          "[fenced](docs/nowhere.md)",
          "```",
          "",
        ].join("\n"),
      );
      writeFileSync(join(root, "docs", "a.md"), "# A\n\n## Section one\n\n[bad anchor](decisions/b.md#nope)\n");
      writeFileSync(join(root, "docs", "decisions", "b.md"), "# B\n\n[up](../../README.md#title) [out](../../../x)\n");
      expect(brokenLinks(root)).toEqual([
        "README.md:3: docs/missing.md (no such file: docs/missing.md)",
        "docs/a.md:5: decisions/b.md#nope (no heading #nope in docs/decisions/b.md)",
        "docs/decisions/b.md:3: ../../../x (points outside the repository)",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const found = () => CANDIDATES.find((path) => existsSync(path));

/**
 * Debian's Chromium, installed with apt-get when it is missing (the first run on a fresh machine takes a
 * minute or two). Without apt the test cannot run, and says so.
 */
export function chromiumPath(): string {
  const present = found();
  if (present) return present;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" });
  if (apt.status !== 0) {
    throw new Error("Chromium is not installed and apt-get is not available: install Debian's chromium package.");
  }
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const step = spawnSync("apt-get", args, {
      encoding: "utf8",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (step.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed: ${step.stderr.slice(-2000)}`);
  }
  const installed = found();
  if (!installed) throw new Error("apt-get installed chromium, but no chromium binary was found");
  return installed;
}

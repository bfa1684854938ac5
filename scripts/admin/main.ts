import { readFileSync } from "node:fs";
import type { Firestore } from "@google-cloud/firestore";
import { adminFirestore } from "./firestore.ts";
import {
  createApiKey,
  createOrganization,
  disableApiKey,
  listApiKeys,
  listOrganizations,
  setOrganizationStatus,
  UserError,
} from "./organizations.ts";
import { getCustomPricing, repriceUnpriced, setCustomPricing } from "./pricing.ts";

const HELP = `Usage: npm run admin -- <command>

Organizations
  org create <org-id> [--name NAME]   create an active organization
  org disable <org-id>                refuse every key of the organization
  org enable <org-id>                 accept its active keys again
  org list                            list organizations

API keys
  key create <org-id>                 create a key; it is printed once, alone on the last line
  key list <org-id>                   list the organization's keys (prefix, status, created)
  key disable <key-prefix>            disable the key with this prefix

Custom prices
  pricing set <org-id> <file.json>    replace the organization's custom prices (schema: README)
  pricing list <org-id>               show them
  reprice <org-id>                    price the organization's unpriced records again

Against the emulators when PUBSUB_EMULATOR_HOST / FIRESTORE_EMULATOR_HOST are set, against
Firestore in GOOGLE_CLOUD_PROJECT otherwise. Revocations take effect within the gateway's key
cache time (10 s by default).`;

type Out = (line: string) => void;

export async function runAdmin(args: string[], db: Firestore, out: Out): Promise<void> {
  const [group, action, ...rest] = args;
  const need = (count: number, usage: string) => {
    if (rest.length < count) throw new UserError(`usage: npm run admin -- ${usage}`);
  };
  const command = `${group ?? ""} ${action ?? ""}`.trim();
  switch (command) {
    case "org create": {
      need(1, "org create <org-id> [--name NAME]");
      const nameAt = rest.indexOf("--name");
      const name = nameAt >= 0 ? rest[nameAt + 1] : undefined;
      if (nameAt >= 0 && !name) throw new UserError("--name needs a value");
      const org = await createOrganization(db, rest[0] as string, name);
      return out(`created organization ${org.id} (${org.name})`);
    }
    case "org disable":
    case "org enable": {
      need(1, `org ${action} <org-id>`);
      await setOrganizationStatus(db, rest[0] as string, action === "disable" ? "disabled" : "active");
      return out(`organization ${rest[0]} is ${action === "disable" ? "disabled" : "active"}`);
    }
    case "org list": {
      const orgs = await listOrganizations(db);
      if (orgs.length === 0) return out("no organizations");
      for (const org of orgs) out(`${org.id}\t${org.status}\t${org.created_at}\t${org.name}`);
      return;
    }
    case "key create": {
      need(1, "key create <org-id>");
      const created = await createApiKey(db, rest[0] as string);
      out(`created key ${created.prefix}... for ${created.organization_id}; it is shown once, keep it now:`);
      return out(created.key);
    }
    case "key list": {
      need(1, "key list <org-id>");
      const keys = await listApiKeys(db, rest[0] as string);
      if (keys.length === 0) return out("no keys");
      for (const key of keys) out(`${key.prefix}...\t${key.status}\t${key.created_at}`);
      return;
    }
    case "key disable": {
      need(1, "key disable <key-prefix>");
      const key = await disableApiKey(db, rest[0] as string);
      return out(`disabled key ${key.prefix}... of ${key.organization_id}`);
    }
    case "pricing set": {
      need(2, "pricing set <org-id> <file.json>");
      let text: string;
      try {
        text = readFileSync(rest[1] as string, "utf8");
      } catch {
        throw new UserError(`cannot read ${rest[1]}`);
      }
      const doc = await setCustomPricing(db, rest[0] as string, text);
      return out(`set ${doc.prices.length} custom price(s) for ${rest[0]}`);
    }
    case "pricing list": {
      need(1, "pricing list <org-id>");
      return out(JSON.stringify(await getCustomPricing(db, rest[0] as string), null, 2));
    }
    default:
      if (group === "reprice" && action) {
        const result = await repriceUnpriced(db, action);
        out(`examined ${result.examined} unpriced record(s); priced ${result.priced}`);
        for (const left of result.stillUnpriced) out(`still unpriced ${left.message_id}: ${left.reason}`);
        return;
      }
      throw new UserError(args.length === 0 ? HELP : `unknown command "${args.join(" ")}"\n\n${HELP}`);
  }
}

const isMain = process.argv[1]?.endsWith("admin/main.ts");
if (isMain) {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(HELP);
    process.exit(0);
  }
  const db = adminFirestore();
  let code = 0;
  try {
    await runAdmin(args, db, (line) => console.log(line));
  } catch (error) {
    code = error instanceof UserError ? 1 : 2;
    console.error(
      error instanceof UserError ? `error: ${error.message}` : `error: ${(error as Error).message ?? String(error)}`,
    );
  } finally {
    await db.terminate();
  }
  process.exit(code);
}

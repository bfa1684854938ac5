import type { Firestore } from "@google-cloud/firestore";
import { type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import { DOCUMENT_PATHS, NotFoundError } from "@usage-ingestion/shared";
import { checkIfMatch, etagOf } from "@usage-ingestion/shared/server";
import {
  DEFAULT_SETTINGS,
  type ReconciliationSettings,
  type ReconciliationSettingsInput,
  type ReconciliationSettingsView,
  settingsFromView,
  settingsOf,
  settingsView,
  storedView,
} from "./reconciliation-settings.ts";

/** `organizations/{org}/settings/reconciliation`: the view, and when it was last set. */
interface SettingsDocument extends ReconciliationSettingsView {
  updated_at: string;
}

/** The settings as answered: the view, when last set (null: never, the defaults), and its version. */
export type SettingsAnswer = ReconciliationSettingsView & { updated_at: string | null; etag: string };

const answerOf = (stored: SettingsDocument | undefined): SettingsAnswer => {
  const document = stored ? storedView(stored) : { ...settingsView(DEFAULT_SETTINGS), updated_at: null };
  return { ...document, etag: etagOf(document) };
};

const target = (organizationId: string) => ({ type: "reconciliation_settings", id: organizationId });

/** The organization's settings (the defaults until set); 404 for an organization that does not exist. */
export async function getSettings(db: Firestore, organizationId: string): Promise<SettingsAnswer> {
  const [organization, stored] = await db.getAll(
    db.doc(DOCUMENT_PATHS.organization(organizationId)),
    db.doc(DOCUMENT_PATHS.reconciliationSettings(organizationId)),
  );
  if (!organization?.exists) throw new NotFoundError(`organization "${organizationId}" does not exist`);
  return answerOf(stored?.exists ? (stored.data() as SettingsDocument) : undefined);
}

/** The settings a run compares and alerts with: the defaults until set. */
export async function runSettings(db: Firestore, organizationId: string): Promise<ReconciliationSettings> {
  const stored = await db.doc(DOCUMENT_PATHS.reconciliationSettings(organizationId)).get();
  return stored.exists ? settingsFromView(stored.data() as SettingsDocument) : DEFAULT_SETTINGS;
}

/**
 * Replaces the settings (each field absent takes its default), honouring `expectedEtag` (If-Match) in the
 * write's own transaction, with its `reconciliation_settings.updated` entry.
 */
export async function putSettings(
  db: Firestore,
  organizationId: string,
  input: ReconciliationSettingsInput,
  change: ChangeContext = operatorChange(),
  expectedEtag?: string,
  now = new Date(),
): Promise<SettingsAnswer> {
  const ref = db.doc(DOCUMENT_PATHS.reconciliationSettings(organizationId));
  const orgRef = db.doc(DOCUMENT_PATHS.organization(organizationId));
  return db.runTransaction(async (transaction) => {
    const [organization, stored] = await Promise.all([transaction.get(orgRef), transaction.get(ref)]);
    if (!organization.exists) throw new NotFoundError(`organization "${organizationId}" does not exist`);
    const before = answerOf(stored.exists ? (stored.data() as SettingsDocument) : undefined);
    checkIfMatch(expectedEtag, before.etag, "the reconciliation settings");
    const after: SettingsDocument = { ...settingsView(settingsOf(input)), updated_at: now.toISOString() };
    transaction.set(ref, after);
    const { etag: _etag, ...beforeView } = before;
    recordChange(
      transaction,
      db,
      organizationId,
      change,
      { action: "reconciliation_settings.updated", target: target(organizationId), before: beforeView, after },
      now,
    );
    return answerOf(after);
  });
}

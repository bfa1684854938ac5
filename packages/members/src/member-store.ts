import type { Firestore, Transaction } from "@google-cloud/firestore";
import { type AuditActor, type ChangeContext, operatorChange, recordChange } from "@usage-ingestion/audit";
import type { Role } from "@usage-ingestion/organizations";
import { type MemberDocument, memberPath, membersPath, type PersonDocument, personPath } from "./member-documents.ts";
import { MembersError } from "./member-errors.ts";
import { assertKeepsAnOwner, invitedMember } from "./member-rules.ts";

/**
 * Members and the per-person index, always written together in one transaction: the index is what
 * `GET /v1/me` and sign-in read, the member documents what an organization's list and checks read.
 */
const noSuchMember = (email: string) => new MembersError("not_found", `No member ${email} in this organization.`);

/** `invited_by` as a member shows it: a person's email, else the actor's kind and id (`operator:alice`). */
export const invitedByOf = (actor: AuditActor) => (actor.type === "user" ? actor.id : `${actor.type}:${actor.id}`);

const memberTarget = (email: string) => ({ type: "member", id: email });

export async function readPerson(tx: Transaction, db: Firestore, email: string): Promise<PersonDocument> {
  const snap = await tx.get(db.doc(personPath(email)));
  return (snap.data() as PersonDocument | undefined) ?? { organizations: {} };
}

async function activeOwners(tx: Transaction, db: Firestore, organizationId: string): Promise<number> {
  const owners = await tx.get(
    db.collection(membersPath(organizationId)).where("role", "==", "owner").where("status", "==", "active").limit(2),
  );
  return owners.size;
}

/**
 * Writes an invitation, its index entry and its `member.invited` entry into `tx`, after the caller's reads
 * (a transaction reads before it writes): `person` is what readPerson gave.
 */
export function stageInvitation(
  tx: Transaction,
  db: Firestore,
  invitation: { organizationId: string; email: string; role: Role; person: PersonDocument },
  change: ChangeContext,
  now: Date,
): MemberDocument {
  const { organizationId, email, role, person } = invitation;
  const member = invitedMember(email, role, invitedByOf(change.actor), now);
  tx.create(db.doc(memberPath(organizationId, email)), member);
  person.organizations[organizationId] = { role, status: member.status };
  tx.set(db.doc(personPath(email)), person);
  recordChange(
    tx,
    db,
    organizationId,
    change,
    { action: "member.invited", target: memberTarget(email), after: member },
    now,
  );
  return member;
}

/** Invites `email` with `role`; a person already a member (or invited) is a conflict. Audited. */
export async function inviteMember(
  db: Firestore,
  organizationId: string,
  email: string,
  role: Role,
  change: ChangeContext = operatorChange(),
  now = new Date(),
): Promise<MemberDocument> {
  return db.runTransaction(async (tx) => {
    const organization = await tx.get(db.doc(`organizations/${organizationId}`));
    if (!organization.exists) throw new MembersError("not_found", `No organization ${organizationId}.`);
    const existing = await tx.get(db.doc(memberPath(organizationId, email)));
    if (existing.exists) throw new MembersError("conflict", `${email} is already a member of this organization.`);
    const person = await readPerson(tx, db, email);
    return stageInvitation(tx, db, { organizationId, email, role, person }, change, now);
  });
}

/** One member, or undefined. */
export async function findMember(
  db: Firestore,
  organizationId: string,
  email: string,
): Promise<MemberDocument | undefined> {
  const snap = await db.doc(memberPath(organizationId, email)).get();
  return snap.data() as MemberDocument | undefined;
}

/** A page of members in email order, and the email to continue after when more follow. */
export async function listMembers(
  db: Firestore,
  organizationId: string,
  page: { limit: number; after?: string },
): Promise<{ members: MemberDocument[]; next?: string }> {
  let query = db
    .collection(membersPath(organizationId))
    .orderBy("email")
    .limit(page.limit + 1);
  if (page.after !== undefined) query = query.startAfter(page.after);
  const snap = await query.get();
  const members = snap.docs.slice(0, page.limit).map((doc) => doc.data() as MemberDocument);
  const last = members.at(-1);
  return snap.size > page.limit && last ? { members, next: last.email } : { members };
}

/** Changes a member's role (`member.role_changed`); demoting the last active owner is a conflict. */
export async function changeMemberRole(
  db: Firestore,
  organizationId: string,
  email: string,
  role: Role,
  change: ChangeContext = operatorChange(),
): Promise<MemberDocument> {
  return db.runTransaction(async (tx) => {
    const snap = await tx.get(db.doc(memberPath(organizationId, email)));
    const member = snap.data() as MemberDocument | undefined;
    if (!member) throw noSuchMember(email);
    assertKeepsAnOwner(member, role, await activeOwners(tx, db, organizationId));
    const person = await readPerson(tx, db, email);
    const changed = { ...member, role };
    tx.set(snap.ref, changed);
    person.organizations[organizationId] = { role, status: member.status };
    tx.set(db.doc(personPath(email)), person);
    recordChange(tx, db, organizationId, change, {
      action: "member.role_changed",
      target: memberTarget(email),
      before: { role: member.role },
      after: { role },
    });
    return changed;
  });
}

/**
 * Removes a member (or withdraws an invitation): `member.removed`; removing the last active owner is a
 * conflict.
 */
export async function removeMember(
  db: Firestore,
  organizationId: string,
  email: string,
  change: ChangeContext = operatorChange(),
): Promise<void> {
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(db.doc(memberPath(organizationId, email)));
    const member = snap.data() as MemberDocument | undefined;
    if (!member) throw noSuchMember(email);
    assertKeepsAnOwner(member, undefined, await activeOwners(tx, db, organizationId));
    const person = await readPerson(tx, db, email);
    tx.delete(snap.ref);
    delete person.organizations[organizationId];
    tx.set(db.doc(personPath(email)), person);
    recordChange(tx, db, organizationId, change, {
      action: "member.removed",
      target: memberTarget(email),
      before: member,
    });
  });
}

/** The organizations a person belongs to, with each one's name, in id order (GET /v1/me). */
export async function membershipsOf(
  db: Firestore,
  email: string,
): Promise<Array<{ id: string; name: string; role: Role }>> {
  const snap = await db.doc(personPath(email)).get();
  const entries = Object.entries((snap.data() as PersonDocument | undefined)?.organizations ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  if (entries.length === 0) return [];
  const organizations = await db.getAll(...entries.map(([id]) => db.doc(`organizations/${id}`)));
  return entries.flatMap(([id, entry], index) => {
    const organization = organizations[index]?.data() as { name?: string } | undefined;
    return organization ? [{ id, name: organization.name ?? id, role: entry.role }] : [];
  });
}

import { randomUUID } from "node:crypto";
import type { Firestore } from "@google-cloud/firestore";
import { recordChange } from "@usage-ingestion/audit";
import { type MemberDocument, memberPath, type PersonDocument, personPath } from "./member-documents.ts";
import { readPerson } from "./member-store.ts";

/**
 * Makes every invitation of `email` take effect: called when a person has signed in with that verified
 * email (and when one arrives during their session). Each one taking effect is a `member.joined` entry in
 * its organization, the person its actor, in the same transaction. `requestId` is the request that
 * signed them in (or found them invited). Answers the organizations they belong to.
 */
export async function activateInvitations(
  db: Firestore,
  email: string,
  requestId: string = randomUUID(),
  now = new Date(),
): Promise<PersonDocument["organizations"]> {
  const change = { actor: { type: "user" as const, id: email }, requestId };
  return db.runTransaction(async (tx) => {
    const person = await readPerson(tx, db, email);
    const pending = Object.entries(person.organizations).filter(([, entry]) => entry.status === "invited");
    if (pending.length === 0) return person.organizations;
    const refs = pending.map(([organizationId]) => db.doc(memberPath(organizationId, email)));
    const snaps = await tx.getAll(...refs);
    for (const snap of snaps) {
      const organizationId = snap.ref.parent.parent?.id as string;
      const member = snap.data() as MemberDocument | undefined;
      // An index entry without its member (never written apart, but the index is not trusted alone).
      if (!member) {
        delete person.organizations[organizationId];
        continue;
      }
      if (member.status === "invited") {
        const joined: MemberDocument = { ...member, status: "active", joined_at: now.toISOString() };
        tx.set(snap.ref, joined);
        recordChange(
          tx,
          db,
          organizationId,
          change,
          {
            action: "member.joined",
            target: { type: "member", id: email },
            before: { status: member.status },
            after: { status: joined.status, joined_at: joined.joined_at },
          },
          now,
        );
      }
      person.organizations[organizationId] = { role: member.role, status: "active" };
    }
    tx.set(db.doc(personPath(email)), person);
    return person.organizations;
  });
}

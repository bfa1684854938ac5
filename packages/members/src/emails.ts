/**
 * A person's email as members are keyed by it. Lower-cased: issuers and people write the same mailbox
 * in different cases, and one person must never be two members. Bounded by RFC 5321's 254 characters,
 * and never with `/` (a Firestore document id cannot hold one) or white space.
 */
const EMAIL = /^[^\s@/]{1,64}@[^\s@/]{1,253}$/;
export const MAX_EMAIL_LENGTH = 254;

/** The email as members are keyed by it, or undefined when it cannot be one. */
export function normalizeEmail(text: unknown): string | undefined {
  if (typeof text !== "string" || text.length > MAX_EMAIL_LENGTH) return undefined;
  const email = text.trim().toLowerCase();
  if (!EMAIL.test(email) || email.includes("..")) return undefined;
  return email;
}

/** What every page is given: who is signed in, the organization chosen, and the page's own URL state. */
export type Role = "viewer" | "admin" | "owner";

export interface Organization {
  id: string;
  name: string;
  role: Role;
}

export interface Me {
  email: string;
  organizations: Organization[];
}

export interface PageContext {
  me: Me;
  org: Organization;
  /** The page's state, as its URL's query holds it (`org` included). */
  params: URLSearchParams;
  /** Sets these query parameters (undefined or "" removes one) and shows the page again. */
  go(changes: Record<string, string | undefined>, options?: { replace?: boolean }): void;
}

/** A page fills `into` (a fresh element each time) and answers once it has. */
export type Page = (context: PageContext, into: HTMLElement) => Promise<void>;

const RANK: Record<Role, number> = { viewer: 0, admin: 1, owner: 2 };

/** Whether the role may do what `needed` may (the server checks again on every request). */
export const may = (role: Role, needed: Role) => RANK[role] >= RANK[needed];

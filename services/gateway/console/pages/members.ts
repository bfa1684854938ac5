import { call, get, orgPath } from "../api.ts";
import { may, type Page } from "../context.ts";
import { field, fill, h, select, table, time, value } from "../dom.ts";
import { attempt, readOnly } from "./common.ts";

interface Member {
  email: string;
  role: string;
  status: string;
  invited_by: string | null;
  joined_at: string | null;
}

const ROLES: Array<[string, string]> = [
  ["viewer", "viewer"],
  ["admin", "admin"],
  ["owner", "owner"],
];

/** Members: who may do what; an owner invites, changes a role and removes (never the last owner). */
export const membersPage: Page = async ({ org, me }, into) => {
  const canChange = may(org.role, "owner");
  const path = orgPath(org.id, "/members");
  const status = h("div");
  const list = h("div");

  function controls(member: Member) {
    const role = select("role", ROLES, member.role);
    role.setAttribute("aria-label", `Role of ${member.email}`);
    role.addEventListener(
      "change",
      () =>
        void attempt(status, null, async () => {
          await call("PATCH", `${path}/${encodeURIComponent(member.email)}`, { body: { role: role.value } });
          await load();
        }).then((done) => {
          if (!done) role.value = member.role;
        }),
    );
    const remove: HTMLButtonElement = h(
      "button",
      {
        type: "button",
        class: "danger",
        "aria-label": `Remove ${member.email}`,
        onclick: () =>
          void attempt(status, remove, async () => {
            await call("DELETE", `${path}/${encodeURIComponent(member.email)}`);
            await load();
          }),
      },
      "Remove",
    );
    return h("td", {}, h("div", { class: "actions" }, role, remove));
  }

  async function load() {
    const { members } = await get<{ members: Member[] }>(`${path}?limit=1000`);
    fill(
      list,
      table(
        "Members",
        ["Email", "Role", "Status", "Invited by", "Joined", ...(canChange ? ["Change"] : [])],
        members.map((member) => [
          value(member.email),
          member.role,
          member.status,
          value(member.invited_by ?? "(operator)"),
          time(member.joined_at),
          ...(canChange ? [controls(member)] : []),
        ]),
      ),
    );
  }

  const email = h("input", { name: "email", type: "email", required: true, autocomplete: "off" });
  const role = select("role", ROLES, "viewer");
  const submit = h("button", { type: "submit", class: "primary" }, "Invite");
  const invite: HTMLFormElement = h(
    "form",
    {
      class: "panel",
      "aria-label": "Invite a member",
      onsubmit: (event: Event) => {
        event.preventDefault();
        void attempt(status, submit, async () => {
          await call("POST", path, { body: { email: email.value.trim(), role: role.value } });
          invite.reset();
          await load();
        });
      },
    },
    h("div", { class: "fields" }, field("Email", email), field("Role", role)),
    h("div", { class: "actions" }, submit),
    h(
      "p",
      { class: "muted" },
      "The invitation takes effect when that person signs in with this email, verified by the issuer.",
    ),
  );
  fill(
    into,
    h("h1", {}, "Members"),
    h("p", { class: "muted" }, "Signed in as ", value(me.email), `, ${org.role} of this organization.`),
    canChange ? invite : readOnly(org.role, "owner"),
    status,
    list,
  );
  await load();
};

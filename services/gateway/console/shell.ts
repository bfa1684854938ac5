import { ApiError, send } from "./api.ts";
import type { Me, Organization, Page, PageContext } from "./context.ts";
import { fill, h, notice, value } from "./dom.ts";
import { CONSOLE_PAGES, CONSOLE_ROOT, type ConsolePath } from "./paths.ts";
import { currentRoute, hrefOf, navigate } from "./route.ts";

const TITLE = "Usage console";
let moved = false;

/** The sign-in link, back to where the person was once they have signed in. */
export function showSignedOut(
  app: HTMLElement,
  message = "Sign in to see your organizations' costs, keys and settings.",
) {
  const returnTo = location.pathname.startsWith(CONSOLE_ROOT) ? location.pathname + location.search : CONSOLE_ROOT;
  document.title = TITLE;
  fill(
    app,
    h(
      "main",
      { id: "main", class: "signed-out" },
      h("h1", {}, TITLE),
      h("p", {}, message),
      h("a", { class: "button", href: `/auth/login?return_to=${encodeURIComponent(returnTo)}` }, "Sign in"),
    ),
  );
}

function organizationSwitcher(me: Me, org: Organization, page: ConsolePath) {
  const control = h(
    "select",
    {
      id: "organization",
      onchange: (event: Event) => navigate(hrefOf(page, { org: (event.target as HTMLSelectElement).value })),
    },
    me.organizations.map((each) =>
      h("option", { value: each.id, selected: each.id === org.id }, `${each.name} (${each.role})`),
    ),
  );
  return h("div", { class: "switcher" }, h("label", { for: "organization" }, "Organization"), control);
}

function navigation(org: Organization, page: ConsolePath) {
  const link = (entry: (typeof CONSOLE_PAGES)[number]) =>
    h(
      "li",
      {},
      h(
        "a",
        {
          href: hrefOf(entry.path, { org: org.id }),
          "data-route": true,
          "aria-current": entry.path === page ? "page" : null,
        },
        entry.name,
      ),
    );
  return h(
    "nav",
    { "aria-label": "Console" },
    h("ul", {}, CONSOLE_PAGES.filter((entry) => !entry.settings).map(link)),
    h("h2", { id: "settings-heading" }, "Settings"),
    h("ul", { "aria-labelledby": "settings-heading" }, CONSOLE_PAGES.filter((entry) => entry.settings).map(link)),
  );
}

async function signOut(app: HTMLElement) {
  try {
    await send("POST", "/auth/logout");
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  history.replaceState(null, "", CONSOLE_ROOT);
  showSignedOut(app, "You have signed out.");
}

/**
 * The page the route names, inside the console's frame: the organization switcher, who is signed in,
 * Sign out, the navigation (Settings' pages under their heading) and the page itself in `main`.
 */
export async function showPage(app: HTMLElement, me: Me, pages: Partial<Record<ConsolePath, Page>>) {
  const route = currentRoute();
  const asked = route.params.get("org");
  const org = me.organizations.find((each) => each.id === asked) ?? me.organizations[0];
  if (!org) {
    fill(
      app,
      h(
        "main",
        { id: "main" },
        h("h1", {}, TITLE),
        h("p", {}, `Signed in as ${me.email}, who is not a member of any organization yet. An owner can invite you.`),
        h("button", { type: "button", onclick: () => void signOut(app) }, "Sign out"),
      ),
    );
    return;
  }
  if (asked !== org.id) {
    route.params.set("org", org.id);
    history.replaceState(null, "", hrefOf(route.page, route.params));
  }
  const entry = CONSOLE_PAGES.find((candidate) => candidate.path === route.page) as (typeof CONSOLE_PAGES)[number];
  document.title = `${entry.name} · ${org.name} · ${TITLE}`;
  const main = h("main", { id: "main", tabindex: "-1" });
  fill(
    app,
    h(
      "header",
      { class: "top" },
      h("p", { class: "brand" }, TITLE),
      organizationSwitcher(me, org, route.page),
      h("p", { class: "who" }, "Signed in as ", value(me.email)),
      h("button", { type: "button", onclick: () => void signOut(app) }, "Sign out"),
    ),
    h("div", { class: "layout" }, navigation(org, route.page), main),
  );
  const context: PageContext = {
    me,
    org,
    params: route.params,
    go(changes, options = {}) {
      const params = new URLSearchParams(route.params);
      for (const [name, entryValue] of Object.entries(changes)) {
        if (entryValue) params.set(name, entryValue);
        else params.delete(name);
      }
      navigate(hrefOf(route.page, params), options);
    },
  };
  const page = pages[route.page];
  main.setAttribute("aria-busy", "true");
  fill(main, h("h1", {}, entry.name), h("p", { class: "muted" }, "Loading…"));
  try {
    if (page) await page(context, main);
    else fill(main, h("h1", {}, entry.name), notice("This page is not in the console yet."));
  } catch (error) {
    main.append(notice(error instanceof ApiError ? error.describe() : String(error), "error"));
  } finally {
    main.removeAttribute("aria-busy");
  }
  // After a move within the console (not on arrival), focus goes to the new page's content, as a page
  // load would put a screen reader's reading there, instead of being lost with the replaced link.
  if (moved) main.focus();
  moved = true;
}

import { CONSOLE_PAGES, CONSOLE_ROOT, type ConsolePath } from "./paths.ts";

/** Where the browser is: one of the console's pages and its query (the page's state). */
export interface Route {
  page: ConsolePath;
  params: URLSearchParams;
}

const DEFAULT_PAGE: ConsolePath = "costs";

export function currentRoute(): Route {
  const rest = location.pathname.slice(CONSOLE_ROOT.length).replace(/^\/|\/$/g, "");
  const page = CONSOLE_PAGES.find((candidate) => candidate.path === rest)?.path ?? DEFAULT_PAGE;
  return { page, params: new URLSearchParams(location.search) };
}

export function hrefOf(page: ConsolePath, params: URLSearchParams | Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${CONSOLE_ROOT}/${page}${query ? `?${query}` : ""}`;
}

let onChange: () => void = () => {};

/** Calls `render` whenever the route changes: a link of the console followed, back and forward. */
export function routeWith(render: () => void) {
  onChange = render;
  window.addEventListener("popstate", () => onChange());
  document.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.("a[data-route]");
    if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(link.href);
  });
}

export function navigate(href: string, options: { replace?: boolean } = {}) {
  if (options.replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  onChange();
}

/**
 * Elements built from data without ever parsing it as HTML: text goes in as text nodes, attributes by
 * setAttribute, handlers by addEventListener. A model name or customer id holding markup, bidi or control
 * characters shows as the characters it is.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Handler>;

function append(parent: Node, children: Child[]) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

function setAttributes(element: Element, attrs: Attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attrs);
  append(element, children);
  return element;
}

export function svg(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttributes(element, attrs);
  append(element, children);
  return element;
}

/**
 * A value someone else chose (a model, a customer id, a context value) as isolated text: its own
 * direction, so a right-to-left override inside it cannot reorder what stands around it.
 */
export const value = (text: unknown) =>
  h("bdi", { class: "value" }, text === null || text === undefined ? "(none)" : String(text));

/** Replaces what `parent` holds. */
export function fill(parent: Element, ...children: Child[]) {
  parent.replaceChildren();
  append(parent, children);
}

let ids = 0;
/** An id unique in the page, for labels and descriptions. */
export const uniqueId = (prefix: string) => `${prefix}-${++ids}`;

/** A labelled control: `<label for>` and the control itself, in one block. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  const id = control.id || uniqueId("field");
  control.id = id;
  const hintId = hint ? `${id}-hint` : undefined;
  if (hintId) control.setAttribute("aria-describedby", hintId);
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    control,
    hint && h("small", { id: hintId }, hint),
  );
}

/** A `<select>` of options, `selected` chosen. */
export function select(name: string, options: Array<[value: string, label: string]>, selected?: string) {
  return h(
    "select",
    { name },
    options.map(([optionValue, label]) =>
      h("option", { value: optionValue, selected: optionValue === selected }, label),
    ),
  );
}

/** A table with column headers; each row's cells as children. */
export function table(caption: string, headers: Array<string | [string, string]>, rows: Child[][]) {
  return h(
    "table",
    {},
    h("caption", { class: "visually-hidden" }, caption),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        headers.map((header) =>
          Array.isArray(header)
            ? h("th", { scope: "col", class: header[1] }, header[0])
            : h("th", { scope: "col" }, header),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      rows.map((cells) =>
        h(
          "tr",
          {},
          cells.map((cell) => (cell instanceof HTMLTableCellElement ? cell : h("td", {}, cell))),
        ),
      ),
    ),
  );
}

export const numberCell = (...children: Child[]) => h("td", { class: "number" }, ...children);

/** A message for assistive technology and eyes alike: errors as alerts, the rest as status. */
export const notice = (text: string, kind: "error" | "info" = "info") =>
  h("p", { class: kind, role: kind === "error" ? "alert" : "status" }, text);

/** A time as the browser's locale shows it, with the exact instant in `datetime` and the title. */
export function time(iso: string | null | undefined) {
  if (!iso) return h("span", { class: "muted" }, "never");
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return value(iso);
  return h(
    "time",
    { datetime: iso, title: iso },
    at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
  );
}

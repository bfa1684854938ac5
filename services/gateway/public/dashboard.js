// The cost dashboard: money is shown rounded to the cent ($1,234.50, see money-format.js) with the API's own
// exact decimal string as the element's title, on hover; the charts plot those strings as numbers only to
// draw bars. The read key stays in sessionStorage: this tab only, gone when it closes.
import { formatAxisUsd, formatUsd } from "./money-format.js";

const KEY = "usage-read-key";
const $ = (id) => document.getElementById(id);
const PALETTE = [
  "#4269d0",
  "#efb118",
  "#ff725c",
  "#6cc5b0",
  "#3ca951",
  "#ff8ab7",
  "#a463f2",
  "#97bbf5",
  "#9c6b4e",
  "#9498a0",
];
const charts = {};

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
  }
}

async function api(path, params) {
  const response = await fetch(`${path}?${new URLSearchParams(params)}`, {
    headers: { "X-Api-Key": sessionStorage.getItem(KEY) ?? "" },
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

const dayInput = (date) => date.toISOString().slice(0, 10);

function initialRange() {
  const query = new URLSearchParams(location.search);
  const today = new Date(`${dayInput(new Date())}T00:00:00Z`);
  const to = query.get("to") ?? dayInput(new Date(today.getTime() + 86_400_000));
  const from = query.get("from") ?? dayInput(new Date(today.getTime() - 29 * 86_400_000));
  return { from, to };
}

function filters() {
  const chosen = {};
  for (const select of document.querySelectorAll("#dimension-filters select")) {
    if (select.value !== "") chosen[select.name] = select.value;
  }
  return chosen;
}

function cell(text, numeric = false) {
  const td = document.createElement("td");
  td.textContent = text ?? "(none)";
  if (numeric) td.className = "number";
  return td;
}

/** An amount as people read it, and the API's exact figure on hover. */
function money(element, decimal) {
  element.textContent = formatUsd(decimal);
  element.title = decimal;
  return element;
}

function fillTable(id, rows) {
  const body = $(id).querySelector("tbody");
  body.replaceChildren(
    ...rows.map((cells) => {
      const tr = document.createElement("tr");
      tr.append(...cells);
      return tr;
    }),
  );
}

function draw(id, config) {
  charts[id]?.destroy();
  charts[id] = new window.Chart($(id), config);
}

function drawOverTime(report, stack) {
  const days = [...new Set(report.groups.map((group) => group.key.day))].sort();
  const series = [...new Set(report.groups.map((group) => group.key[stack] ?? "(none)"))];
  const exact = new Map(report.groups.map((g) => [`${g.key.day}|${g.key[stack] ?? "(none)"}`, g.cost_usd]));
  draw("over-time", {
    type: "bar",
    data: {
      labels: days,
      datasets: series.map((name, i) => ({
        label: name,
        backgroundColor: PALETTE[i % PALETTE.length],
        data: days.map((day) => Number(exact.get(`${day}|${name}`) ?? 0)),
      })),
    },
    options: {
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { stacked: true },
        y: { stacked: true, title: { display: true, text: "USD" }, ticks: { callback: formatAxisUsd } },
      },
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) => {
              const cost = exact.get(`${item.label}|${item.dataset.label}`) ?? "0";
              return `${item.dataset.label}: ${formatUsd(cost)} (exact ${cost})`;
            },
          },
        },
      },
    },
  });
}

function drawCustomers(report) {
  const top = report.groups.slice(0, 10);
  draw("customers", {
    type: "bar",
    data: {
      labels: top.map((group) => group.key.billable_customer_id),
      datasets: [{ label: "USD", backgroundColor: PALETTE[0], data: top.map((group) => Number(group.cost_usd)) }],
    },
    options: {
      indexAxis: "y",
      maintainAspectRatio: false,
      animation: false,
      scales: { x: { ticks: { callback: formatAxisUsd } } },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            label: (item) => `${formatUsd(top[item.dataIndex].cost_usd)} (exact ${top[item.dataIndex].cost_usd})`,
          },
        },
      },
    },
  });
  fillTable(
    "customers-table",
    top.map((g) => [
      cell(g.key.billable_customer_id),
      money(cell("", true), g.cost_usd),
      cell(String(g.transactions), true),
    ]),
  );
}

async function buildDimensionFilters(range, dimensions) {
  const holder = $("dimension-filters");
  if (holder.dataset.built === "yes") return;
  holder.dataset.built = "yes";
  for (const dimension of dimensions) {
    const field = `context.${dimension}`;
    const values = await api("/usage/costs", { ...range, group_by: field });
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.name = field;
    select.append(new Option("all", ""));
    for (const group of values.groups) {
      if (group.key[field] !== null) select.append(new Option(group.key[field], group.key[field]));
    }
    label.append(`${dimension} `, select);
    holder.append(label);
  }
}

const scopeText = ({ customer, provider, model, dimension }) =>
  [
    customer && `customer ${customer}`,
    provider && `provider ${provider}`,
    model && `model ${model}`,
    dimension && `${dimension.name} ${dimension.value}`,
  ]
    .filter(Boolean)
    .join(", ") || "whole organization";

/** Each budget in its current period; one past a threshold is marked, one past its amount more so. */
function fillBudgets(answer) {
  fillTable(
    "budgets-table",
    answer.budgets.map((budget) => {
      const used = cell(`${budget.percent}%`, true);
      if (budget.thresholds_crossed.length > 0) used.className = "number crossed";
      if (Number(budget.percent) >= 100) used.className = "number over";
      const periodText = `${budget.period} (${budget.time_zone}), from ${budget.current_period.start.slice(0, 16)}Z`;
      return [
        cell(budget.name ?? budget.id),
        cell(scopeText(budget.scope)),
        cell(periodText),
        money(cell("", true), budget.spent_usd),
        money(cell("", true), budget.amount_usd),
        used,
        cell(budget.thresholds_crossed.map((t) => `${t}%`).join(", ") || "none"),
        budget.forecast_usd === null ? cell("too early", true) : money(cell("", true), budget.forecast_usd),
      ];
    }),
  );
}

async function show() {
  document.body.dataset.state = "loading";
  $("report-error").textContent = "";
  const range = { from: $("from").value, to: $("to").value };
  const stack = $("stack").value;
  const chosen = filters();
  try {
    const [overTime, customers, unpriced] = await Promise.all([
      api("/usage/costs", { ...range, ...chosen, group_by: `day,${stack}` }),
      api("/usage/costs", { ...range, ...chosen, group_by: "billable_customer_id" }),
      api("/usage/unpriced", range),
    ]);
    money($("total-cost"), overTime.totals.cost_usd);
    $("total-transactions").textContent = String(overTime.totals.transactions);
    $("total-unpriced").textContent = String(overTime.totals.unpriced_transactions);
    $("total-conflicts").textContent = String(overTime.totals.conflict_transactions);
    drawOverTime(overTime, stack);
    drawCustomers(customers);
    fillTable(
      "unpriced-table",
      unpriced.unpriced.map((u) => [
        cell(u.provider),
        cell(u.model),
        cell(u.reason),
        cell(String(u.transactions), true),
      ]),
    );
    // After the three reports: a key may run four report requests at once, the filters' included.
    fillBudgets(await api("/usage/budgets", {}));
    await buildDimensionFilters(range, overTime.dimensions);
    document.body.dataset.state = "ready";
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      return signOut("That key cannot read reports (a read key is needed).");
    $("report-error").textContent = error.message;
    document.body.dataset.state = "error";
  }
}

function signOut(message = "") {
  sessionStorage.removeItem(KEY);
  $("report").hidden = true;
  $("sign-out").hidden = true;
  $("key-form").hidden = false;
  $("key-error").textContent = message;
  document.body.dataset.state = "signed-out";
}

function open() {
  $("key-error").textContent = "";
  $("key-form").hidden = true;
  $("report").hidden = false;
  $("sign-out").hidden = false;
  return show();
}

$("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $("key").value.trim());
  $("key").value = "";
  open();
});
$("controls").addEventListener("submit", (event) => {
  event.preventDefault();
  show();
});
$("sign-out").addEventListener("click", () => signOut());

const range = initialRange();
$("from").value = range.from;
$("to").value = range.to;
if (sessionStorage.getItem(KEY)) open();
else signOut();

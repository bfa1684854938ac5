import { h, svg } from "./dom.ts";

/** Colour-blind-safe colours (Okabe and Ito), then grey for what is folded into "other". */
const COLOURS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"];
export const OTHER = "other";
const GREY = "#8c959f";

export interface StackedBars {
  /** The bars' labels, in order (days). */
  bars: string[];
  /** The series, largest first; each bar's value per series. */
  series: Array<{ name: string; values: number[] }>;
  /** How a value reads (an axis label, a bar's title). */
  format: (value: number) => string;
  label: string;
}

/**
 * A stacked bar chart in SVG: one bar per day, one colour per series, the legend beside it; each
 * segment titled with its series and value. The numbers are for drawing only; the table holds the
 * exact amounts.
 */
export function stackedBarChart(chart: StackedBars) {
  const width = 800;
  const height = 260;
  const left = 70;
  const bottom = 24;
  const totals = chart.bars.map((_, bar) => chart.series.reduce((sum, each) => sum + (each.values[bar] ?? 0), 0));
  const max = Math.max(...totals, 0);
  const slot = (width - left) / Math.max(chart.bars.length, 1);
  const barWidth = Math.max(Math.min(slot * 0.7, 48), 2);
  const scale = max > 0 ? (height - bottom - 10) / max : 0;
  const colour = (index: number, name: string) => (name === OTHER ? GREY : (COLOURS[index % COLOURS.length] as string));
  const every = Math.ceil(chart.bars.length / 10);
  const drawing = svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": chart.label },
    svg("line", { x1: left, y1: height - bottom, x2: width, y2: height - bottom, stroke: "#59636e" }),
    svg("text", { x: left - 6, y: 14, "text-anchor": "end", "font-size": 11, fill: "#1f2328" }, chart.format(max)),
    svg(
      "text",
      { x: left - 6, y: height - bottom, "text-anchor": "end", "font-size": 11, fill: "#1f2328" },
      chart.format(0),
    ),
    chart.bars.map((label, bar) => {
      const x = left + slot * bar + (slot - barWidth) / 2;
      let y = height - bottom;
      const segments = chart.series.map((each, index) => {
        const amount = each.values[bar] ?? 0;
        const tall = amount * scale;
        y -= tall;
        return amount > 0
          ? svg(
              "rect",
              { x, y, width: barWidth, height: Math.max(tall, 0.5), fill: colour(index, each.name) },
              svg("title", {}, `${label}, ${each.name}: ${chart.format(amount)}`),
            )
          : null;
      });
      const tick =
        bar % every === 0
          ? svg(
              "text",
              { x: x + barWidth / 2, y: height - 6, "text-anchor": "middle", "font-size": 11, fill: "#1f2328" },
              label.slice(5),
            )
          : null;
      return [segments, tick];
    }),
  );
  return h(
    "figure",
    { class: "chart" },
    drawing,
    h(
      "ul",
      { class: "legend", "aria-label": "Legend" },
      chart.series.map((each, index) => h("li", {}, swatch(colour(index, each.name)), h("bdi", {}, each.name))),
    ),
  );
}

/** A legend's colour sample, its colour set through the DOM (which the page's policy allows, unlike a style attribute). */
function swatch(colour: string) {
  const sample = h("span", { class: "swatch", "aria-hidden": "true" });
  sample.style.backgroundColor = colour;
  return sample;
}

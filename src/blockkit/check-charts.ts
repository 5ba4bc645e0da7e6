import { type CheckContext, checkArray, checkString, isObj, type Obj } from "./check-context.ts";
import { LIMITS as L } from "./limit-values.ts";

/**
 * The blocks Slack draws data with, checked like the rest: the data visualization block (a chart
 * of series over categories, one point per category, numbers only) and the table block (rows of
 * raw text cells). Both exist only in messages.
 */

/** Blocks Slack shows in messages alone (not in modals, the Home tab or an unfurl). */
export const MESSAGE_ONLY = new Set(["data_visualization", "table", "markdown"]);

/** How many of a type one message may carry. */
const PER_MESSAGE: Record<string, number> = {
  data_visualization: L.chartsPerMessage,
  table: L.tablesPerMessage,
};

/** Counts the block and reports a surface it does not belong on, or one too many of it. */
export function checkPlacement(ctx: CheckContext, type: string, at: string): void {
  if (MESSAGE_ONLY.has(type) && ctx.surface !== "message") ctx.problems.push(`${at}: only messages take it`);
  const n = (ctx.typeCounts.get(type) ?? 0) + 1;
  ctx.typeCounts.set(type, n);
  const max = PER_MESSAGE[type];
  if (max !== undefined && n > max) ctx.problems.push(`${at}: at most ${max} per message`);
}

function checkLabel(ctx: CheckContext, v: unknown, path: string): string | null {
  checkString(ctx, v, path, L.chartLabel, { required: true, min: 1 });
  return typeof v === "string" ? v : null;
}

function checkSeries(
  ctx: CheckContext,
  s: unknown,
  path: string,
  categories: readonly string[],
): string | null {
  if (!isObj(s)) {
    ctx.problems.push(`${path} must be a series object`);
    return null;
  }
  const name = checkLabel(ctx, s.name, `${path}.name`);
  const points = checkArray(ctx, s.data, `${path}.data`, L.chartPoints, { required: true, min: 1 }) ?? [];
  if (points.length !== categories.length) ctx.problems.push(`${path}.data needs one point per category`);
  points.forEach((p, i) => {
    const at = `${path}.data[${i}]`;
    if (!isObj(p)) {
      ctx.problems.push(`${at} must be a point object`);
      return;
    }
    if (checkLabel(ctx, p.label, `${at}.label`) !== categories[i])
      ctx.problems.push(`${at}.label must be category ${i} of the axis`);
    if (typeof p.value !== "number" || !Number.isFinite(p.value))
      ctx.problems.push(`${at}.value must be a number`);
  });
  return name;
}

/** A line, bar or area chart: title, 1 to 6 uniquely named series, categories they all follow. */
export function checkDataVisualization(ctx: CheckContext, block: Obj, at: string): void {
  checkString(ctx, block.title, `${at}.title`, L.chartTitle, { required: true, min: 1 });
  if (typeof block.title === "string") ctx.textTotal += block.title.length;
  const chart = block.chart;
  if (!isObj(chart) || !["line", "bar", "area"].includes(String(chart.type))) {
    ctx.problems.push(`${at}.chart must be a line, bar or area chart`);
    return;
  }
  const axis = isObj(chart.axis_config) ? chart.axis_config : null;
  if (!axis) ctx.problems.push(`${at}.chart.axis_config is required`);
  checkString(ctx, axis?.x_label, `${at}.chart.axis_config.x_label`, L.chartAxisLabel, { min: 1 });
  checkString(ctx, axis?.y_label, `${at}.chart.axis_config.y_label`, L.chartAxisLabel, { min: 1 });
  const categories = (
    checkArray(ctx, axis?.categories, `${at}.chart.axis_config.categories`, L.chartPoints, {
      required: true,
      min: 1,
    }) ?? []
  ).map((c, i) => checkLabel(ctx, c, `${at}.chart.axis_config.categories[${i}]`) ?? "");
  if (new Set(categories).size !== categories.length) ctx.problems.push(`${at}: categories must be unique`);
  const series = checkArray(ctx, chart.series, `${at}.chart.series`, L.chartSeries, {
    required: true,
    min: 1,
  });
  const names = (series ?? []).map((s, i) => checkSeries(ctx, s, `${at}.chart.series[${i}]`, categories));
  if (new Set(names).size !== names.length) ctx.problems.push(`${at}: series names must be unique`);
}

/** A table of raw text cells, every row as long, within Slack's rows and cells; cells count as text. */
export function checkTable(ctx: CheckContext, block: Obj, at: string): void {
  const rows = checkArray(ctx, block.rows, `${at}.rows`, L.tableRows, { required: true, min: 1 }) ?? [];
  const width = Array.isArray(rows[0]) ? rows[0].length : 0;
  rows.forEach((row, i) => {
    const cells = checkArray(ctx, row, `${at}.rows[${i}]`, L.tableCells, { required: true, min: 1 });
    if (cells && cells.length !== width) ctx.problems.push(`${at}.rows[${i}] must have ${width} cells`);
    cells?.forEach((c, j) => {
      const p = `${at}.rows[${i}][${j}]`;
      if (!isObj(c) || c.type !== "raw_text") ctx.problems.push(`${p} must be a raw_text cell`);
      else {
        checkString(ctx, c.text, `${p}.text`, L.sectionText, { required: true, min: 1 });
        if (typeof c.text === "string") ctx.textTotal += c.text.length;
      }
    });
  });
  const settings = checkArray(ctx, block.column_settings, `${at}.column_settings`, L.tableColumnSettings);
  settings?.forEach((s, i) => {
    if (s !== null && !(isObj(s) && [undefined, "left", "center", "right"].includes(s.align as string)))
      ctx.problems.push(`${at}.column_settings[${i}].align must be left, center or right`);
  });
}

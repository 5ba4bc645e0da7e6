import { SLACK_LIMITS as L } from "./limits.ts";
import reference from "./reference.json" with { type: "json" };
import { checkList, checkStr, fail, isObj, type Obj, onlyProps, required, type Walk } from "./walk.ts";

/**
 * The blocks Slack draws data with: the data visualization block (a line, bar, area or pie chart),
 * the table block and the data table block, checked as Slack's reference pages describe them. A
 * cartesian chart's series must each hold exactly one point per category, labelled with the
 * categories; a point's value is a number (there is no null: a gap cannot be sent as one).
 */

const CHART_TYPES = new Set(reference.charts.types);
const ALIGN = new Set(reference.charts.align);
const TABLE_CELLS = new Set(reference.charts.table_cells);
const DATA_TABLE_CELLS = new Set(reference.charts.data_table_cells);

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** A required string of 1 to `max` characters. */
function label(w: Walk, v: unknown, path: string, max: number): string | null {
  if (v === undefined) {
    fail(w, path, "missing required field");
    return null;
  }
  checkStr(w, v, path, max, 1);
  return typeof v === "string" ? v : null;
}

function checkAxis(w: Walk, v: unknown, path: string): string[] {
  if (!isObj(v)) {
    fail(w, path, "must provide an object");
    return [];
  }
  onlyProps(w, v, path, ["categories", "x_label", "y_label"]);
  checkStr(w, v.x_label, `${path}/x_label`, L.chartAxisLabel, 1);
  checkStr(w, v.y_label, `${path}/y_label`, L.chartAxisLabel, 1);
  if (!required(w, v, "categories", path)) return [];
  const seen = new Set<string>();
  checkList(w, v.categories, `${path}/categories`, L.chartPoints).forEach((c, i) => {
    const at = `${path}/categories/${i}`;
    const name = label(w, c, at, L.chartLabel);
    if (name === null) return;
    if (seen.has(name)) fail(w, at, "duplicate category");
    seen.add(name);
  });
  return [...seen];
}

function checkSeries(w: Walk, v: unknown, path: string, categories: readonly string[]): void {
  const names = new Set<string>();
  checkList(w, v, path, L.chartSeries).forEach((s, i) => {
    const at = `${path}/${i}`;
    if (!isObj(s)) {
      fail(w, at, "must provide an object");
      return;
    }
    onlyProps(w, s, at, ["name", "data"]);
    const name = label(w, s.name, `${at}/name`, L.chartLabel);
    if (name !== null && names.has(name)) fail(w, `${at}/name`, "series names must be unique");
    if (name !== null) names.add(name);
    if (!required(w, s, "data", at)) return;
    const points = checkList(w, s.data, `${at}/data`, L.chartPoints);
    const labels = new Set<string>();
    points.forEach((p, j) => {
      const pt = `${at}/data/${j}`;
      if (!isObj(p)) {
        fail(w, pt, "must provide an object");
        return;
      }
      onlyProps(w, p, pt, ["label", "value"]);
      const l = label(w, p.label, `${pt}/label`, L.chartLabel);
      if (!isNumber(p.value)) fail(w, `${pt}/value`, "must provide a number");
      if (l === null) return;
      if (!categories.includes(l)) fail(w, `${pt}/label`, "must match one of axis_config.categories");
      if (labels.has(l)) fail(w, `${pt}/label`, "duplicate label in series");
      labels.add(l);
    });
    if (points.length !== categories.length)
      fail(w, `${at}/data`, "must hold exactly one point for every category");
  });
}

function checkPie(w: Walk, chart: Obj, path: string): void {
  onlyProps(w, chart, path, ["type", "segments"]);
  if (!required(w, chart, "segments", path)) return;
  checkList(w, chart.segments, `${path}/segments`, L.chartSegments).forEach((s, i) => {
    const at = `${path}/segments/${i}`;
    if (!isObj(s)) {
      fail(w, at, "must provide an object");
      return;
    }
    onlyProps(w, s, at, ["label", "value"]);
    label(w, s.label, `${at}/label`, L.chartLabel);
    if (!isNumber(s.value) || s.value <= 0) fail(w, `${at}/value`, "must be a number greater than 0");
  });
}

/** A `data_visualization` block's own fields (its `type` and `block_id` are the caller's). */
export function checkDataVisualization(w: Walk, block: Obj, path: string): void {
  if (required(w, block, "title", path)) label(w, block.title, `${path}/title`, L.chartTitle);
  if (!required(w, block, "chart", path)) return;
  const chart = block.chart;
  const at = `${path}/chart`;
  if (!isObj(chart)) {
    fail(w, at, "must provide an object");
    return;
  }
  const type = typeof chart.type === "string" ? chart.type : "";
  if (!CHART_TYPES.has(type)) {
    fail(w, `${at}/type`, `must be one of ${[...CHART_TYPES].join(", ")}`);
    return;
  }
  if (type === "pie") {
    checkPie(w, chart, at);
    return;
  }
  onlyProps(w, chart, at, ["type", "series", "axis_config"]);
  const hasSeries = required(w, chart, "series", at);
  const categories = required(w, chart, "axis_config", at)
    ? checkAxis(w, chart.axis_config, `${at}/axis_config`)
    : [];
  if (hasSeries) checkSeries(w, chart.series, `${at}/series`, categories);
}

function checkRichCell(w: Walk, cell: Obj, path: string): void {
  onlyProps(w, cell, path, ["type", "elements", "block_id"]);
  if (required(w, cell, "elements", path)) checkList(w, cell.elements, `${path}/elements`, 1e6);
}

/** A cell's characters, for the data table's budget. */
function cellText(cell: Obj): number {
  if (typeof cell.text === "string") return cell.text.length;
  return JSON.stringify(cell.elements ?? "").length;
}

function checkCell(w: Walk, cell: unknown, path: string, kinds: ReadonlySet<string>): Obj | null {
  if (!isObj(cell)) {
    fail(w, path, "must provide an object");
    return null;
  }
  const type = typeof cell.type === "string" ? cell.type : "";
  if (!kinds.has(type)) {
    fail(w, `${path}/type`, `must be one of ${[...kinds].join(", ")}`);
    return null;
  }
  if (type === "rich_text") checkRichCell(w, cell, path);
  else if (type === "raw_number") {
    onlyProps(w, cell, path, ["type", "value", "text"]);
    if (!isNumber(cell.value)) fail(w, `${path}/value`, "must provide a number");
    checkStr(w, cell.text, `${path}/text`, Number.MAX_SAFE_INTEGER, 1);
  } else {
    onlyProps(w, cell, path, ["type", "text"]);
    if (required(w, cell, "text", path)) checkStr(w, cell.text, `${path}/text`, Number.MAX_SAFE_INTEGER, 1);
  }
  return cell;
}

/**
 * A `table` block: up to 100 rows of up to 20 raw_text or rich_text cells, and column settings.
 * Slack's page does not say rows must be equally long; the stand-in asks it (a ragged table is
 * certainly a template bug).
 */
export function checkTable(w: Walk, block: Obj, path: string): void {
  if (required(w, block, "rows", path)) {
    let width: number | null = null;
    checkList(w, block.rows, `${path}/rows`, L.tableRows).forEach((row, i) => {
      const at = `${path}/rows/${i}`;
      const cells = Array.isArray(row) ? row : null;
      if (!cells) {
        fail(w, at, "must provide an array");
        return;
      }
      checkList(w, cells, at, L.tableCells);
      if (width !== null && cells.length !== width)
        fail(w, at, "every row must have the same number of cells");
      width ??= cells.length;
      cells.forEach((c, j) => {
        checkCell(w, c, `${at}/${j}`, TABLE_CELLS);
      });
    });
  }
  checkList(w, block.column_settings, `${path}/column_settings`, L.tableColumnSettings).forEach((s, i) => {
    const at = `${path}/column_settings/${i}`;
    if (s === null) return;
    if (!isObj(s)) {
      fail(w, at, "must provide an object");
      return;
    }
    onlyProps(w, s, at, ["align", "is_wrapped"]);
    if (s.align !== undefined && !ALIGN.has(String(s.align)))
      fail(w, `${at}/align`, "must be left, center or right");
    if (s.is_wrapped !== undefined && typeof s.is_wrapped !== "boolean")
      fail(w, `${at}/is_wrapped`, "must provide a boolean");
  });
}

/**
 * A `data_table` block: a caption, a header row and 1 to 100 more, 1 to 20 columns in every row, no
 * rich text in the header, at most 10,000 characters across its cells.
 */
export function checkDataTable(w: Walk, block: Obj, path: string): void {
  if (required(w, block, "caption", path))
    checkStr(w, block.caption, `${path}/caption`, Number.MAX_SAFE_INTEGER, 1);
  const size = block.page_size;
  if (
    size !== undefined &&
    !(Number.isInteger(size) && (size as number) >= 1 && (size as number) <= L.dataTablePageSize)
  )
    fail(w, `${path}/page_size`, `must be a whole number from 1 to ${L.dataTablePageSize}`);
  if (!required(w, block, "rows", path)) return;
  const rows = checkList(w, block.rows, `${path}/rows`, L.dataTableRows, L.dataTableMinRows);
  const width = Array.isArray(rows[0]) ? rows[0].length : 0;
  const index = block.row_header_column_index;
  if (
    index !== undefined &&
    !(Number.isInteger(index) && (index as number) >= 0 && (index as number) < width)
  )
    fail(w, `${path}/row_header_column_index`, "must name one of the columns");
  let chars = 0;
  rows.forEach((row, i) => {
    const at = `${path}/rows/${i}`;
    if (!Array.isArray(row)) {
      fail(w, at, "must provide an array");
      return;
    }
    checkList(w, row, at, L.dataTableColumns);
    if (row.length !== width) fail(w, at, "every row must have the same number of values");
    row.forEach((c, j) => {
      const cell = checkCell(w, c, `${at}/${j}`, DATA_TABLE_CELLS);
      if (cell && i === 0 && cell.type === "rich_text")
        fail(w, `${at}/${j}/type`, "header cells cannot be rich_text");
      if (cell) chars += cellText(cell);
    });
  });
  if (chars > L.dataTableCellText)
    fail(w, `${path}/rows`, `cells must be less than ${L.dataTableCellText + 1} characters in all`);
}

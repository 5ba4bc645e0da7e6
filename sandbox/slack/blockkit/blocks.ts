import { checkDataTable, checkDataVisualization, checkTable } from "./charts.ts";
import { checkContextActions } from "./context-actions.ts";
import { checkElement, checkImageSource } from "./elements.ts";
import { SLACK_LIMITS as L } from "./limits.ts";
import reference from "./reference.json" with { type: "json" };
import {
  checkBlockId,
  checkList,
  checkStr,
  checkText,
  fail,
  isObj,
  onlyProps,
  required,
  type Walk,
} from "./walk.ts";

/** Properties of each block type Slack defines (besides `type` and `block_id`). */
const BLOCKS: Record<string, readonly string[]> = {
  section: ["text", "fields", "accessory", "expand"],
  header: ["text"],
  context: ["elements"],
  divider: [],
  actions: ["elements"],
  image: ["image_url", "slack_file", "alt_text", "title"],
  input: ["label", "element", "dispatch_action", "hint", "optional"],
  markdown: ["text"],
  context_actions: ["elements"],
  rich_text: ["elements"],
  data_visualization: ["title", "chart"],
  table: ["rows", "column_settings"],
  data_table: ["rows", "caption", "page_size", "row_header_column_index"],
  file: ["external_id", "source"],
  video: [
    "alt_text",
    "author_name",
    "description",
    "provider_icon_url",
    "provider_name",
    "title",
    "title_url",
    "thumbnail_url",
    "video_url",
  ],
};

/** Blocks Slack shows only on some surfaces; an unfurl (an attachment) takes none of them. */
const ONLY_ON: Record<string, readonly string[] | undefined> = {
  data_visualization: reference.surfaces.data_visualization,
  table: reference.surfaces.table,
  data_table: reference.surfaces.data_table,
  markdown: reference.surfaces.markdown,
};

/** How many of a type one message may carry. */
const PER_MESSAGE: Record<string, number | undefined> = {
  data_visualization: L.chartsPerMessage,
  table: L.tablesPerMessage,
};

/** Where the block may go, how many of it, and whether a test told the stand-in to refuse it. */
function checkPlace(w: Walk, type: string, path: string): boolean {
  if (w.refused.has(type)) {
    fail(w, `${path}/type`, `unsupported type: ${type}`);
    return false;
  }
  const only = ONLY_ON[type];
  if (only && !only.includes(w.surface)) {
    fail(
      w,
      `${path}/type`,
      `${type} blocks are not supported in ${w.surface === "unfurl" ? "unfurls" : `${w.surface} views`}`,
    );
    return false;
  }
  const n = (w.typeCounts.get(type) ?? 0) + 1;
  w.typeCounts.set(type, n);
  const max = PER_MESSAGE[type];
  if (max !== undefined && n > max)
    fail(w, path, `no more than ${max} ${type} block${max === 1 ? "" : "s"} allowed per message`);
  return true;
}

function checkContext(w: Walk, elements: unknown, path: string): void {
  checkList(w, elements, path, L.contextElements).forEach((e, i) => {
    const at = `${path}/${i}`;
    if (isObj(e) && e.type === "image") {
      onlyProps(w, e, at, ["type", "image_url", "slack_file", "alt_text"]);
      checkImageSource(w, e, at);
    } else checkText(w, e, at, L.contextText);
  });
}

/** One block of a message or view. */
export function checkBlock(w: Walk, block: unknown, path: string): void {
  if (!isObj(block)) {
    fail(w, path, "must provide an object");
    return;
  }
  const type = typeof block.type === "string" ? block.type : "";
  const props = BLOCKS[type];
  if (!props) {
    fail(w, `${path}/type`, `unsupported type: ${type.slice(0, 40)}`);
    return;
  }
  if (!checkPlace(w, type, path)) return;
  onlyProps(w, block, path, ["type", "block_id", ...props]);
  checkBlockId(w, block.block_id, `${path}/block_id`, L.id);
  const actionIds = new Set<string>();
  switch (type) {
    case "section":
      if (block.text === undefined && block.fields === undefined)
        fail(w, path, "must provide at least one of text or fields");
      checkText(w, block.text, `${path}/text`, L.sectionText);
      checkList(w, block.fields, `${path}/fields`, L.sectionFields).forEach((f, i) => {
        checkText(w, f, `${path}/fields/${i}`, L.sectionFieldText);
      });
      if (block.accessory !== undefined)
        checkElement(w, block.accessory, `${path}/accessory`, "accessory", actionIds);
      return;
    case "header":
      if (required(w, block, "text", path)) checkText(w, block.text, `${path}/text`, L.headerText, true);
      return;
    case "context":
      if (required(w, block, "elements", path)) checkContext(w, block.elements, `${path}/elements`);
      return;
    case "actions":
      if (!required(w, block, "elements", path)) return;
      checkList(w, block.elements, `${path}/elements`, L.actionsElements).forEach((e, i) => {
        checkElement(w, e, `${path}/elements/${i}`, "actions", actionIds);
      });
      return;
    case "image":
      checkImageSource(w, block, path);
      checkText(w, block.title, `${path}/title`, L.imageTitle, true);
      return;
    case "input":
      // Slack shows input blocks in messages too, but nothing here posts one: refusing them keeps a
      // template from sending a form that was meant for a modal.
      if (w.surface === "message" || w.surface === "unfurl")
        fail(w, path, "input blocks are only checked in modals and Home tabs");
      if (required(w, block, "label", path)) checkText(w, block.label, `${path}/label`, L.inputLabel, true);
      checkText(w, block.hint, `${path}/hint`, L.inputHint, true);
      if (required(w, block, "element", path))
        checkElement(w, block.element, `${path}/element`, "input", actionIds);
      return;
    case "context_actions":
      if (required(w, block, "elements", path))
        checkContextActions(w, block.elements, `${path}/elements`, actionIds);
      return;
    case "markdown":
      if (!required(w, block, "text", path)) return;
      checkStr(w, block.text, `${path}/text`, L.markdownBlockText, 1);
      if (typeof block.text === "string") w.markdownTotal += block.text.length;
      return;
    case "rich_text":
      if (required(w, block, "elements", path)) checkList(w, block.elements, `${path}/elements`, 1e6, 0);
      return;
    case "data_visualization":
      checkDataVisualization(w, block, path);
      return;
    case "table":
      checkTable(w, block, path);
      return;
    case "data_table":
      checkDataTable(w, block, path);
      return;
    default:
      // divider, file and video: their inner fields are not checked; nothing here sends them.
      return;
  }
}

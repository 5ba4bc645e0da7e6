import { checkElement, checkImageSource } from "./elements.ts";
import { SLACK_LIMITS as L } from "./limits.ts";
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
  rich_text: ["elements"],
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
      if (w.surface === "message") fail(w, path, "input blocks are only checked in modals and Home tabs");
      if (required(w, block, "label", path)) checkText(w, block.label, `${path}/label`, L.inputLabel, true);
      checkText(w, block.hint, `${path}/hint`, L.inputHint, true);
      if (required(w, block, "element", path))
        checkElement(w, block.element, `${path}/element`, "input", actionIds);
      return;
    case "markdown":
      if (!required(w, block, "text", path)) return;
      checkStr(w, block.text, `${path}/text`, L.markdownBlockText, 1);
      if (typeof block.text === "string") w.markdownTotal += block.text.length;
      return;
    case "rich_text":
      if (required(w, block, "elements", path)) checkList(w, block.elements, `${path}/elements`, 1e6, 0);
      return;
    default:
      // divider, file and video: their inner fields are not checked; nothing here sends them.
      return;
  }
}

import { SLACK_LIMITS as L } from "./limits.ts";
import { checkList, checkStr, checkText, fail, isObj, onlyProps, required, type Walk } from "./walk.ts";

/**
 * The context_actions block as Slack's reference gives it: messages only, 1 to 5 elements, each a
 * feedback_buttons element (a positive and a negative button, each plain text and a value, an
 * accessibility label optional) or an icon_button. The stand-in models feedback buttons only and
 * refuses icon buttons rather than pass one it cannot check.
 */
export function checkContextActions(w: Walk, elements: unknown, path: string, actionIds: Set<string>): void {
  if (w.surface !== "message") fail(w, path, "context_actions blocks are only valid in messages");
  checkList(w, elements, path, L.contextActionsElements).forEach((e, i) => {
    const at = `${path}/${i}`;
    if (!isObj(e) || e.type !== "feedback_buttons") {
      fail(w, `${at}/type`, "unsupported type: the stand-in checks feedback_buttons only");
      return;
    }
    onlyProps(w, e, at, ["type", "action_id", "positive_button", "negative_button"]);
    checkStr(w, e.action_id, `${at}/action_id`, L.id, 1);
    if (typeof e.action_id === "string") {
      if (actionIds.has(e.action_id)) fail(w, `${at}/action_id`, "duplicate action_id in block");
      actionIds.add(e.action_id);
    }
    for (const side of ["positive_button", "negative_button"]) {
      if (!required(w, e, side, at)) continue;
      const b = e[side];
      const bp = `${at}/${side}`;
      if (!isObj(b)) {
        fail(w, bp, "must provide an object");
        continue;
      }
      onlyProps(w, b, bp, ["text", "value", "accessibility_label"]);
      if (required(w, b, "text", bp)) checkText(w, b.text, `${bp}/text`, L.feedbackButtonText, true);
      if (required(w, b, "value", bp)) checkStr(w, b.value, `${bp}/value`, L.feedbackButtonValue, 1);
      checkStr(w, b.accessibility_label, `${bp}/accessibility_label`, L.feedbackAccessibilityLabel, 1);
    }
  });
}

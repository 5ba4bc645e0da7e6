import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SLASH_COMMAND } from "../../commands/index.ts";
import {
  ACTION,
  CALLBACK,
  COMMAND,
  RANGE_PRESETS,
  STEP,
  SUBSCRIBE_FIELD,
  SUBSCRIBE_SCHEDULE_FIELDS,
} from "../../src/ids.ts";
import { silentLogger } from "../../src/log.ts";
import { routeTable } from "../../src/slack/frame/routes.ts";
import { LISTENERS, lifecycleEvents } from "../../src/slack/listeners/index.ts";

/**
 * Slack ids are a stable interface: a renamed action id breaks every old digest that carries it. The
 * record in test/fixtures/slack-ids.json lists every id ever shipped; each must still be answered.
 */
const record = JSON.parse(readFileSync(new URL("../fixtures/slack-ids.json", import.meta.url), "utf8")) as {
  routed: { action: string[]; view: string[]; options: string[]; command: string[]; function: string[] };
  retired: { action: string[]; view: string[]; options: string[] };
};

const lifecycle = lifecycleEvents({
  redis: {} as never,
  keys: {} as never,
  records: {} as never,
  logger: silentLogger(),
});
const table = routeTable({ command: SLASH_COMMAND, listeners: [...LISTENERS, ...lifecycle] });

const action = (id: string) => table.route({ type: "block_actions", actions: [{ action_id: id }] });
const view = (id: string) => table.route({ type: "view_submission", view: { callback_id: id } });
const options = (id: string) => table.route({ type: "block_suggestion", action_id: id });
const step = (id: string) =>
  table.route({
    type: "event_callback",
    event: { type: "function_executed", function: { callback_id: id } },
  });

describe("every Slack id ever rendered is answered", () => {
  it("each routed id reaches its listener", () => {
    for (const id of record.routed.action) expect(action(id).kind, id).toBe("action");
    for (const id of record.routed.view) expect(view(id).kind, id).toBe("view");
    for (const id of record.routed.options) expect(options(id).kind, id).toBe("options");
    for (const name of record.routed.command) expect(table.route({ command: name }).kind).toBe("command");
    // Workflows keep naming their steps: a renamed callback_id would break every workflow using it.
    for (const id of record.routed.function) expect(step(id).kind, id).toBe("function");
    expect(step("never_shipped")).toMatchObject({ kind: "unrouted", type: "event:function_executed" });
  });

  it("each retired id gets the out-of-date answer, never a listener", () => {
    for (const id of record.retired.action) expect(action(id)).toMatchObject({ kind: "unrouted", id });
    for (const id of record.retired.options) expect(options(id)).toMatchObject({ kind: "unrouted", id });
    for (const id of record.retired.view) expect(view(id)).toMatchObject({ kind: "unrouted", id });
  });

  it("every id the app can render today is in the record (so a rename cannot drop the old one)", () => {
    const rendered = {
      action: [
        ...Object.values(ACTION).filter((id) => id !== ACTION.apiKeyInput),
        ...RANGE_PRESETS.map((p) => p.actionId),
        ...SUBSCRIBE_SCHEDULE_FIELDS,
        SUBSCRIBE_FIELD.channel,
      ],
      view: Object.values(CALLBACK),
      options: [ACTION.assetSelect, ACTION.scannerSelect, SUBSCRIBE_FIELD.assets, SUBSCRIBE_FIELD.scanners],
      command: [COMMAND],
    };
    for (const kind of ["action", "view", "options", "command"] as const)
      for (const id of rendered[kind]) expect(record.routed[kind], `${kind} ${id}`).toContain(id);
    for (const id of Object.values(STEP)) expect(record.routed.function, `function ${id}`).toContain(id);
  });

  it("a table where two entries answer one id is refused", () => {
    const dup = LISTENERS.find((e) => e.kind === "action" && typeof e.id === "string");
    expect(() => routeTable({ command: SLASH_COMMAND, listeners: [...LISTENERS, dup as never] })).toThrow(
      /two action entries/,
    );
  });
});

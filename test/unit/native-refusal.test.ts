import { describe, expect, it } from "vitest";
import { hasNative, refusedTypes, refusesNative, withoutNative } from "../../src/blockkit/native.ts";
import type { Block } from "../../src/blockkit/types.ts";
import { refusalOf, sendWithFallback } from "../../src/slack/refusal.ts";

const blocks: Block[] = [
  { type: "header", text: { type: "plain_text", text: "Insights" } },
  {
    type: "data_visualization",
    title: "Violations per day",
    chart: { type: "bar", series: [], axis_config: { categories: [] } },
  },
  { type: "table", rows: [[{ type: "raw_text", text: "a" }]] },
  { type: "divider" },
];
const at = (i: number) => `unsupported type [json-pointer:/blocks/${i}/type]`;

describe("telling a refused chart or table from any other refusal", () => {
  it("reads the refused blocks' types from the json pointers of Slack's errors", () => {
    expect(
      refusedTypes([at(1), `must be less than 151 characters [json-pointer:/blocks/0/text/text]`], blocks),
    ).toEqual(new Set(["data_visualization", "header"]));
    expect(refusedTypes(["no pointer here", at(9)], blocks)).toEqual(new Set());
  });

  it("is a native refusal when Slack names the chart or table, or names nothing while they are there", () => {
    expect(refusesNative({ error: "invalid_blocks", messages: [at(2)] }, blocks)).toBe(true);
    expect(refusesNative({ error: "invalid_blocks", messages: [] }, blocks)).toBe(true);
    // Naming only another block is a bug of that block: no fallback hides it.
    expect(refusesNative({ error: "invalid_blocks", messages: [at(0)] }, blocks)).toBe(false);
    expect(refusesNative({ error: "channel_not_found", messages: [] }, blocks)).toBe(false);
    expect(refusesNative({ error: "invalid_blocks", messages: [] }, [blocks[0], blocks[3]])).toBe(false);
  });

  it("drops only the chart and table blocks", () => {
    expect(hasNative(blocks)).toBe(true);
    const m = withoutNative({ text: "t", blocks });
    expect(m.blocks.map((b) => b.type)).toEqual(["header", "divider"]);
    expect(hasNative(m.blocks)).toBe(false);
  });

  it("finds the refusal in the Web API client's error, the worker's and a response_url's", () => {
    const web = {
      code: "slack_webapi_platform_error",
      data: { ok: false, error: "invalid_blocks", errors: [at(1)] },
    };
    expect(refusalOf(web)).toEqual({ error: "invalid_blocks", messages: [at(1)] });
    expect(refusalOf({ slackError: "invalid_blocks", messages: [at(2)] })).toEqual({
      error: "invalid_blocks",
      messages: [at(2)],
    });
    expect(refusalOf({ code: "response_url_failed", details: { slackError: "invalid_blocks" } })).toEqual({
      error: "invalid_blocks",
      messages: [],
    });
    expect(refusalOf(new Error("boom"))).toBeNull();
  });

  it("sends the fallback once on a native refusal, and throws anything else", async () => {
    const sent: string[] = [];
    const refuse = { data: { error: "invalid_blocks", errors: [at(1)] } };
    const result = await sendWithFallback(
      { blocks, text: "native" },
      () => ({ blocks: [], text: "fallback" }),
      async (m) => {
        sent.push(m.text);
        if (m.text === "native") throw refuse;
        return "ok";
      },
    );
    expect(result).toBe("ok");
    expect(sent).toEqual(["native", "fallback"]);
    const other = { data: { error: "invalid_blocks", errors: [at(0)] } };
    await expect(
      sendWithFallback(
        { blocks, text: "n" },
        () => ({ blocks: [], text: "f" }),
        () => Promise.reject(other),
      ),
    ).rejects.toBe(other);
  });
});

import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { fieldErrors, isFieldRefusal } from "../../src/slack/frame/view-answer.ts";

/** The one way a modal's field errors reach Slack, whoever found them (a handler, or the frame refusing). */
describe("modal field errors through the frame", () => {
  const blocks = [
    { type: "section", block_id: "sub_preview" },
    { type: "input", block_id: "sub_channel" },
    { type: "input", block_id: "sub_time" },
  ];

  it("errors on inputs the view has go where they were put", () => {
    expect(fieldErrors({ sub_time: "Use HH:MM." }, blocks, "sub_channel")).toEqual({
      response_action: "errors",
      errors: { sub_time: "Use HH:MM." },
    });
  });

  it("an error on an input the view lacks (Slack would refuse the whole answer) goes on the fallback input, joined", () => {
    expect(
      fieldErrors(
        { sub_channel: "Choose a channel.", sub_cron: "Not a cron expression." },
        blocks,
        "sub_channel",
      ),
    ).toEqual({
      response_action: "errors",
      errors: { sub_channel: "Choose a channel. Not a cron expression." },
    });
  });

  it("without the fallback input in the view, the first input takes it; a section never does", () => {
    expect(fieldErrors({ api_key: "Rejected." }, blocks, "api_key")).toEqual({
      response_action: "errors",
      errors: { sub_channel: "Rejected." },
    });
    expect(fieldErrors({ sub_preview: "x" }, blocks, "sub_time").errors).toEqual({ sub_time: "x" });
  });

  it("a view whose blocks were not sent keeps the names as given", () => {
    expect(fieldErrors({ api_key: "Rejected." }, [], "api_key").errors).toEqual({ api_key: "Rejected." });
  });

  it("refusals of the person or the request are field errors; anything else is not", () => {
    expect(isFieldRefusal(new AppError("forbidden", "no"))).toBe(true);
    expect(isFieldRefusal(new AppError("bad_request", "no"))).toBe(true);
    expect(isFieldRefusal(new AppError("unavailable", "down"))).toBe(false);
    expect(isFieldRefusal(new Error("boom"))).toBe(false);
  });
});

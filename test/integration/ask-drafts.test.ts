import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { AdjustFields } from "../../src/ask/adjust.ts";
import { encodeAdjust } from "../../src/ask/adjust.ts";
import { encodeProposal, type Proposal } from "../../src/ask/proposal.ts";
import { LIMITS } from "../../src/blockkit/limits.ts";
import { buttonValue, carriedAdjust, carriedProposal } from "../../src/slack/ask-carried.ts";
import { keepDraft } from "../../src/store/drafts.ts";
import { createKeyScheme } from "../../src/store/keys.ts";

/** What does not fit a button is kept in Redis under an id of the workspace; the button carries the id. */

let redis: Redis;
beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await redis.quit();
});

const keys = createKeyScheme({ prefix: `t-drafts-${randomUUID().slice(0, 8)}` });
/** The slice of a request's context the drafts use (Redis is connected once the suite starts). */
const ctxOf = (teamId: string) => ({ deps: { redis, keys }, ref: { teamId } });
const home = () => ctxOf("T0DRAFTS1");

const names = Array.from(
  { length: 90 },
  (_, i) => `payments / component-${String(i).padStart(2, "0")}-service`,
);
const fields: AdjustFields = {
  what: "drivers",
  metrics: ["violations", "fixes"],
  period: "last month",
  compare: "2026-09-01..2026-09-30",
  assets: names.join(", "),
  scanners: "sast, secret scanning",
};

describe("an answer's buttons with more than a button holds", () => {
  it("an Adjust form past 2,000 characters comes back whole from its kept draft", async () => {
    expect(JSON.stringify(fields).length).toBeGreaterThan(LIMITS.buttonValue);
    const value = await buttonValue(home() as never, encodeAdjust(fields));
    expect(value.length).toBeLessThanOrEqual(LIMITS.buttonValue);
    expect(value).toMatch(/^\{"d":"[a-f0-9]{32}"\}$/);
    expect(await carriedAdjust(home() as never, value)).toEqual(fields);
    // Another workspace's button cannot name this draft.
    await expect(carriedAdjust(ctxOf("T0DRAFTS2") as never, value)).rejects.toMatchObject({
      code: "bad_state",
    });
  });

  it("a proposal with many filters is confirmed from its kept draft, not refused for its size", async () => {
    const proposal: Proposal = {
      mode: "digest",
      schedule: { frequency: "weekly", days: ["mon", "thu"], time: "09:00", tz: "Europe/Berlin" },
      range: "last7d",
      assetIds: Array.from(
        { length: 60 },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      ),
      groups: ["payments", "platform"],
      scannerIds: ["sast"],
    };
    const encoded = encodeProposal(proposal);
    expect("keep" in encoded).toBe(true);
    const value = await buttonValue(home() as never, encoded);
    expect(await carriedProposal(home() as never, value)).toEqual(proposal);
  });

  it("a small one rides in the button itself, and a draft past its lifetime says to ask again", async () => {
    const small = encodeAdjust({ ...fields, assets: "payments/*", scanners: "" });
    expect("value" in small).toBe(true);
    const value = await buttonValue(home() as never, small);
    expect(await carriedAdjust(home() as never, value)).toMatchObject({ assets: "payments/*" });
    const id = await keepDraft(home().deps, home().ref, JSON.stringify({}), 20);
    await new Promise((r) => setTimeout(r, 60));
    await expect(carriedAdjust(home() as never, JSON.stringify({ d: id }))).rejects.toMatchObject({
      code: "bad_state",
      message: "This answer's buttons are kept for 30 days and these are older: ask the question again.",
    });
  });
});

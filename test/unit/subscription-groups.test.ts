import { describe, expect, it } from "vitest";
import type { DigestRequest } from "../../src/digests/digest-service.ts";
import { AppError } from "../../src/errors.ts";
import { assetIdsOfGroups, missingGroups } from "../../src/insights/asset-groups.ts";
import { buildView, runAssetIds } from "../../src/jobs/digest-post.ts";
import { classifyFailure } from "../../src/jobs/failures.ts";
import { ownerPausedNotice } from "../../src/jobs/notices.ts";
import { fromHash, toHash } from "../../src/subscriptions/codec.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { validateFields } from "../../src/subscriptions/validate.ts";
import { ASSETS, makeView } from "./fixtures/digest-view.ts";

/** A subscription to asset groups keeps the groups and resolves them at each run. */

const sub: Subscription = {
  id: "grp12345",
  ref: { teamId: "T0DEMO001" },
  channelId: "D0MEMBER1",
  ownerId: "U0MEMBER1",
  schedule: { kind: "weekly", days: ["wed"] },
  time: "08:00",
  tz: "Europe/Berlin",
  range: "last7d",
  assetIds: [],
  assetGroups: ["payments"],
  scannerIds: [],
  filterLabels: ["payments/*"],
  status: "active",
  createdAt: "2026-11-01T00:00:00.000Z",
};

describe("a subscription's asset groups", () => {
  it("are stored as groups, and a record without any has no field for them", () => {
    expect(fromHash(sub.id, sub.ref, toHash(sub))).toEqual(sub);
    const { assetGroups: _g, ...plain } = sub;
    expect(toHash(plain)).not.toHaveProperty("groups");
    expect(fromHash(sub.id, sub.ref, toHash(plain))).toEqual(plain);
  });

  it("are checked like names, and none leaves none", () => {
    const now = new Date("2026-11-18T15:00:00Z");
    const input = { channelId: "D0MEMBER1", schedule: sub.schedule, tz: sub.tz, range: "last7d" };
    expect(validateFields({ ...input, assetGroups: ["payments", " payments "] }, now).assetGroups).toEqual([
      "payments",
    ]);
    expect(validateFields({ ...input, assetGroups: [] }, now)).not.toHaveProperty("assetGroups");
    expect(() => validateFields({ ...input, assetGroups: ["a\nb"] }, now)).toThrow(
      expect.objectContaining({ code: "invalid_subscription" }),
    );
  });

  it("go to every run's digest as groups, resolved to that run's assets", async () => {
    const asked: DigestRequest[] = [];
    const digests = {
      build: async (req: DigestRequest) => {
        asked.push(req);
        return { view: makeView() } as never;
      },
    };
    await buildView({ digests, renderChart: undefined } as never, sub, new Date("2026-11-18T07:00:00Z"));
    expect(asked[0]).toMatchObject({ assetIds: [], assetGroups: ["payments"] });
    // The groups' assets as the run's lists have them (an alert's breakdown asks for those).
    const view = makeView();
    view.filters.assets = ASSETS;
    expect(runAssetIds(sub, view)).toEqual(assetIdsOfGroups(ASSETS, ["payments"]));
    expect(runAssetIds(sub, view)).toHaveLength(2);
  });

  it("a group gone pauses the subscription and tells its owner which groups it is filtered to", () => {
    expect(missingGroups(ASSETS, ["payments", "retired-team"])).toEqual(["retired-team"]);
    const err = new AppError("group_gone", 'No asset group is called "retired-team" any more.');
    expect(classifyFailure(err)).toEqual({ kind: "permanent", reason: "group_gone" });
    const notice = ownerPausedNotice({ ...sub, assetGroups: ["retired-team"] }, "group_gone");
    expect(notice.text).toContain(
      "is paused because an asset group it is filtered to no longer exists in the platform (it is filtered to retired-team/*).",
    );
  });
});

import type { Installation } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import type { StoredInstallation } from "../../src/install/records.ts";
import { createTokenRotation } from "../../src/install/rotation.ts";

const install = (token: string): Installation => ({
  team: { id: "T0ALPHA01", name: "Alpha" },
  enterprise: undefined,
  user: { id: "U0ALPHA01", token: undefined, scopes: undefined },
  bot: { token, userId: "U0BOT0001", id: "B0BOT0001", scopes: ["commands"] },
  isEnterpriseInstall: false,
  authVersion: "v2",
});

/** Records whose reads wait until the test lets them answer, counting them. */
function slowRecords() {
  const pending: ((s: StoredInstallation) => void)[] = [];
  let reads = 0;
  const records = {
    read: () => {
      reads += 1;
      return new Promise<StoredInstallation>((resolve) => pending.push(resolve));
    },
  };
  return {
    records,
    answer: (token: string) => pending.shift()?.({ installation: install(token), rev: "r" }),
    reads: () => reads,
  };
}

describe("the installation held for Bolt", () => {
  it("does not keep a read that a forget overtook: the next request reads again", async () => {
    const r = slowRecords();
    const rotation = createTokenRotation({
      records: r.records as never,
      redis: {} as never,
      refresh: async () => {
        throw new Error("no refresh expected");
      },
    });
    const ref = { teamId: "T0ALPHA01" };
    const first = rotation.recent(ref);
    // The installation changes (stored or purged here) while the first read is on its way.
    rotation.forget(ref);
    r.answer("xoxb-before");
    expect((await first)?.bot?.token).toBe("xoxb-before");
    const second = rotation.recent(ref);
    expect(r.reads()).toBe(2);
    r.answer("xoxb-after");
    expect((await second)?.bot?.token).toBe("xoxb-after");
    // Not overtaken: held, no third read.
    expect((await rotation.recent(ref))?.bot?.token).toBe("xoxb-after");
    expect(r.reads()).toBe(2);
  });
});

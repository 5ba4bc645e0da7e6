import { describe, expect, it } from "vitest";
import { modalWhy } from "../bench/ack/report.ts";
import type { AckRun } from "../bench/ack/section.ts";

/** The ack report's account of flagged modal submissions (test/bench/ack/report.ts). */
describe("modal check in the ack report", () => {
  const run = (o: Partial<AckRun>) =>
    ({ rate: 300, kind: "mix", modalSlackCallsBeforeAck: 0, ...o }) as AckRun;

  it("names each flagged call: method, whom it was about, when it came against the ack, and the neighbours", () => {
    const why = modalWhy([
      run({}),
      run({
        modalSlackCallsBeforeAck: 1,
        modalFlags: [{ method: "users.info", about: "person", callMs: 3.4, ackMs: 5.2, neighbours: 2 }],
      }),
    ]);
    expect(why).toBe(
      "users.info about the person reached Slack 3 ms after the submission was sent, its ack was seen at 5 ms (300/s mix; 2 other requests of that person in the 5 s before)",
    );
  });

  it("says the calls were not recorded for reports from before the check kept them", () => {
    expect(modalWhy([run({ modalSlackCallsBeforeAck: 1 })])).toMatch(
      /^1 lookups .* \(calls not recorded in this report\)$/,
    );
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { formatCount } from "../../src/insights/format.ts";
import { workspaceLabel } from "../../src/store/keys.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { readCsv } from "../fixtures/csv.ts";
import { clickOnReply, command, who } from "./helpers.ts";
import { homeText, idIn, openHome, REF, sub, subscriptionStack, textOf } from "./subscriptions-helpers.ts";

/**
 * Personal digests, conditions and the CSV export through the real app, worker and stand-in: what
 * reaches whom, what a user is told when a run was skipped or a condition is wrong, and the file.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await subscriptionStack(inject("redisUrl"), `e2e-personal-${process.pid}`);
});
afterAll(async () => stack?.close());

const dmOf = (userId: string) => `D${userId.slice(1)}`;
const postsSince = (n: number) => stack.slack.calls((c) => c.method === "chat.postMessage" && c.ok).slice(n);

describe("personal digests", () => {
  it("`subscribe me` sends the digest by DM to the one who asked, and to nobody else", async () => {
    const { body } = await command(stack, "subscribe me daily 08:00", DEMO.member);
    expect(textOf(body)).toContain("You get a digest by DM");
    const id = idIn(body);
    expect(await sub(stack, id)).toMatchObject({ channelId: dmOf(DEMO.member), ownerId: DEMO.member });
    const before = stack.slack.calls((c) => c.method === "chat.postMessage" && c.ok).length;
    await command(stack, `send ${id}`, DEMO.member);
    const digest = await stack.slack.waitFor(() => stack.slack.messages(dmOf(DEMO.member)).at(-1), {
      timeoutMs: 20_000,
      what: "the personal digest",
    });
    expect(JSON.stringify(digest.blocks)).toContain("Your personal digest · Daily at 08:00");
    // The one post of the run went to the member's DM with the app: no channel, no other person.
    expect(postsSince(before).map((c) => c.args.channel)).toEqual([dmOf(DEMO.member)]);
    expect(stack.slack.messages(dmOf(DEMO.admin))).toEqual([]);
  });

  it("someone else's personal digest is not shown to a member, and cannot be sent by them", async () => {
    const mine = idIn((await command(stack, "subscribe me weekly fri 17:00", DEMO.member)).body);
    const theirs = idIn((await command(stack, "subscribe me daily 07:00", DEMO.admin)).body);
    const list = textOf((await command(stack, "subscriptions", DEMO.member)).body);
    expect(list).toContain(mine);
    expect(list).not.toContain(theirs);
    const home = homeText(await openHome(stack, DEMO.member));
    expect(home).toContain(mine);
    expect(home).not.toContain(theirs);
    expect(home).toContain("Send me a digest");
    const before = stack.slack.calls((c) => c.method === "chat.postMessage" && c.ok).length;
    const refused = textOf((await command(stack, `send ${theirs}`, DEMO.member)).body);
    expect(refused).toContain(`Only the owner of subscription ${theirs} or a workspace admin can change it.`);
    expect(postsSince(before)).toEqual([]);
    // The admin, who manages the workspace, sees both.
    const all = textOf((await command(stack, "subscriptions", DEMO.admin)).body);
    expect(all).toContain(mine);
    expect(all).toContain(theirs);
  });
});

describe("conditions", () => {
  it("bad condition text gets a clear error with the grammar, and nothing is stored", async () => {
    const before = (await stack.web.deps.subscriptions.list(REF)).length;
    const { body } = await command(stack, "subscribe daily 08:00 when vulns up 10%", DEMO.admin);
    const text = textOf(body);
    expect(text).toContain("That is not a condition I can check.");
    expect(text).toContain(
      '\\"vulns\\" is not a number I track: use findings, violations, fixes or fixrate (in %).',
    );
    for (const example of [
      "when violations changed 10%",
      "when violations &gt; 500",
      "when violations rose 3",
      "when changed",
    ])
      expect(text).toContain(example);
    const alert = textOf((await command(stack, "alert daily", DEMO.admin)).body);
    expect(alert).toContain("An alert needs a condition to watch");
    expect((await stack.web.deps.subscriptions.list(REF)).length).toBe(before);
  });

  it("a run whose condition is not met shows as 'skipped: <reason>' in `subscriptions` and on the Home tab", async () => {
    const { body } = await command(
      stack,
      "subscribe daily 08:00 when violations > 1000000",
      DEMO.admin,
      DEMO.security,
    );
    const id = idIn(body);
    expect(textOf(body)).toContain("Posts only when violations &gt; 1000000; other runs are skipped");
    const period = periodOf(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
    await stack.worker?.queue.add("catchup", {
      sub: `${workspaceLabel(REF)}.${id}`,
      period,
      ch: DEMO.security,
    });
    const skipped = await stack.slack.waitFor(
      async () => {
        const last = (await sub(stack, id))?.lastDelivery;
        return last?.outcome === "skipped" ? last : undefined;
      },
      { timeoutMs: 20_000, what: "the skipped run" },
    );
    expect(skipped.reason).toMatch(/^violations [\d,]+ not > 1,000,000$/);
    const line = /skipped: violations [\d,]+ not &gt; 1,000,000/;
    expect(textOf((await command(stack, "subscriptions", DEMO.admin)).body)).toMatch(line);
    expect(homeText(await openHome(stack, DEMO.admin))).toMatch(line);
    expect(stack.slack.messages(DEMO.security)).toEqual([]);
  });
});

describe("export", () => {
  /** The CSV of the newest completed upload, after the three steps of Slack's external upload. */
  function lastCsv(channel: string) {
    const complete = stack.slack.calls((c) => c.method === "files.completeUploadExternal" && c.ok).at(-1);
    expect(complete?.args.channel_id).toBe(channel);
    const files = complete?.args.files;
    const id = ((typeof files === "string" ? JSON.parse(files) : files) as { id: string }[])[0]?.id;
    const file = stack.slack.files().find((f) => f.id === id);
    expect(file).toMatchObject({ completed: true, contentType: "text/csv" });
    const message = stack.slack.messages(channel).at(-1);
    expect(message?.files).toEqual([id]);
    const csv = file?.bytes?.toString("utf8") ?? "";
    // The file starts with its header; its range and filters are in its name and in the message.
    const days = readCsv(csv).rows.map((r) => r[0]);
    expect(file?.filename).toBe(`insights_${days[0]}_${days.at(-1)}.csv`);
    expect(message?.text).toContain(`*Range:* ${days[0]} to ${days.at(-1)} (America/Los_Angeles)`);
    expect(message?.text).toMatch(
      /\*Compared with:\* \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(findings \d+ -&gt; \d+/,
    );
    expect(message?.text).toContain("*Assets:* all");
    return csv;
  }

  it("`/insights export last7d` uploads the daily series to the channel; its columns add up to the digest's numbers", async () => {
    const digest = await command(stack, "last7d", DEMO.member);
    const { body } = await command(stack, "export last7d", DEMO.member);
    expect(textOf(body)).toMatch(/Exported the daily series of [^"]+ \(7 rows\) as CSV to <#C0GENERAL>\./);
    for (const step of ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"])
      expect(stack.slack.calls((c) => c.method === step && c.ok).length).toBeGreaterThan(0);
    const csv = lastCsv(DEMO.general);
    const { rows, sums } = readCsv(csv);
    expect(rows).toHaveLength(7);
    // The digest of the file's own days, so a midnight between the export and this check changes nothing.
    const { view } = await stack.web.deps.digests.build({
      ref: REF,
      range: `${rows[0]?.[0]}..${rows.at(-1)?.[0]}`,
      tz: "America/Los_Angeles",
      now: new Date(),
    });
    const d = view.digest;
    expect(sums).toEqual([d.findings.current, d.violations.current, d.fixes, d.mergedViolations]);
    expect(rows.map((r) => r[0])).toEqual(d.series.map((p) => p.day));
    // The digest the member was shown says the same totals.
    expect(textOf(digest.body)).toContain(formatCount(d.violations.current));
    expect(textOf(digest.body)).toContain(formatCount(d.findings.current));
  });

  it("Export CSV on a digest in a channel the app is not in sends the file to the person's DM instead", async () => {
    const { body, sent } = await command(stack, "last30d", DEMO.member, DEMO.noBot);
    await clickOnReply(stack, { body, sent }, ACTION.exportCsv, who(DEMO.member, DEMO.noBot));
    const done = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1], {
      timeoutMs: 15_000,
      what: "the export's confirmation",
    });
    expect(textOf(done.body)).toContain("as CSV to your direct messages with the app");
    expect(readCsv(lastCsv(dmOf(DEMO.member))).rows).toHaveLength(30);
  });
});

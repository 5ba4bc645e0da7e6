import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMAND_ENTRIES } from "../../commands/index.ts";
import { handsOff } from "../../src/slack/frame/index.ts";
import { LISTENERS, lifecycleEvents } from "../../src/slack/listeners/index.ts";

/**
 * Handing work off the acking event loop is the frame's default (commands, clicks, events, steps and
 * the messages people send); an entry that runs where its request is acked says why (`inline`), and
 * modal submissions and type-ahead always do (their answer is the ack; a submission's `work` is handed
 * off). This lists every such entry, and fails when one of them can build a digest: its module (for a
 * submission with `work`, its `run`'s), or any module it imports at run time, builds one
 * (`digests.build(`) or renders a chart or an unfurl.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What builds a digest, a chart or an unfurl, however a module reaches it. */
const BUILDS =
  /\bdigests\.build\(|\bdigestsWith\(|\bcreateChartRenderer\(|\brenderChartPng\(|\bunfurlBlocks\(/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** The module and everything it imports at run time (type-only imports are not code). */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+["'](\.[^"']+)["']/gms))
    closure(resolve(dirname(file), m[1] as string), seen);
  return seen;
}

const builds = (file: string) =>
  [...closure(file)].filter((f) => BUILDS.test(readFileSync(f, "utf8"))).map((f) => f.slice(ROOT.length));

/**
 * Which file defines each entry (by identity: the exported entry, or a command's handler); the
 * registration tables (index.ts) only gather them.
 */
async function homes(): Promise<Map<unknown, string>> {
  const out = new Map<unknown, string>();
  const files = [...sources(join(ROOT, "src/slack/listeners")), ...sources(join(ROOT, "commands"))].filter(
    (f) => !f.endsWith("/index.ts"),
  );
  for (const file of files) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      const many = Array.isArray(value) ? value : [value];
      for (const v of many) if (v && (typeof v === "object" || typeof v === "function")) out.set(v, file);
    }
  }
  return out;
}

type Entry = { kind: string; id?: unknown; name?: string; inline?: string; run: unknown; work?: unknown };

/** A modal submission's `work` is always handed off: only its `run` answers where the request is acked. */
const reasonOf = (e: Entry) =>
  e.inline ?? (e.work ? "its answer is the ack; its work is handed off" : "its answer is the ack");

describe("entries that run on the acking event loop", () => {
  const lifecycle = lifecycleEvents({} as never) as Entry[];
  const all: Entry[] = [...(COMMAND_ENTRIES as Entry[]), ...(LISTENERS as Entry[]), ...lifecycle];
  const label = (e: Entry) => `${e.kind} ${e.kind === "command" ? e.name : String(e.id)}`;
  const inline = all.filter((e) => e.kind === "view" || e.kind === "options" || !handsOff(e));

  it("are these, each with its reason", () => {
    expect(inline.map((e) => `${label(e)}: ${reasonOf(e)}`).sort()).toEqual(
      [
        "command help: a fixed text from a template",
        "command connect: opens a modal (trigger_id lives 3 s)",
        "command subscribe: opens a modal (trigger_id lives 3 s)",
        "command subscribeMe: opens a modal (trigger_id lives 3 s)",
        "action digest_open_platform: nothing to do: the link opens in the browser",
        "action connect_open: opens a modal (trigger_id lives 3 s)",
        "action sub_edit: opens a modal (trigger_id lives 3 s)",
        "action sub_new: opens a modal (trigger_id lives 3 s)",
        "action sub_personal: opens a modal (trigger_id lives 3 s)",
        ...["sub_frequency", "sub_weekday", "sub_monthday", "sub_cron", "sub_time", "sub_timezone"].map(
          (id) =>
            `action ${id}: redraws the open modal from its state and hash, which a hand-off does not carry`,
        ),
        "action sub_channel: checks the channel while the modal is open and redraws it from its state and hash",
        "action ask_adjust: opens a modal (trigger_id lives 3 s)",
        "action ask_change: opens a modal (trigger_id lives 3 s)",
        "view connect_modal: its answer is the ack",
        "view subscribe_modal: its answer is the ack",
        "view ask_adjust_modal: its answer is the ack; its work is handed off",
        ...["digest_asset", "digest_scanner", "sub_assets", "sub_scanners"].map(
          (id) => `options ${id}: its answer is the ack`,
        ),
        ...[
          "channel_archive",
          "group_archive",
          "channel_deleted",
          "group_deleted",
          "member_left_channel",
          "channel_left",
          "group_left",
          "channel_unarchive",
          "group_unarchive",
          "member_joined_channel",
        ].map(
          (id) =>
            `event ${id}: pauses or resumes the channel's subscriptions (Redis), knowing the bot user from Bolt's context`,
        ),
        ...["app_uninstalled", "tokens_revoked", "team_access_revoked"].map(
          (id) =>
            `event ${id}: purges the workspace's records; needs no token and must not wait behind digests`,
        ),
      ].sort(),
    );
  });

  it("none of them can build a digest, drivers, a chart, an unfurl or a step's output", async () => {
    const home = await homes();
    const offenders: string[] = [];
    for (const e of inline) {
      // For a submission with `work`, what runs on the acking loop is its `run`, in a module of its own.
      const file = e.work
        ? home.get(e.run)
        : (home.get(e) ?? home.get(e.run) ?? (lifecycle.includes(e) ? home.get(lifecycleEvents) : undefined));
      if (!file) {
        offenders.push(`${label(e)}: its module was not found`);
        continue;
      }
      const found = builds(file);
      if (found.length > 0)
        offenders.push(`${label(e)} (${file.slice(ROOT.length)}) reaches ${found.join(", ")}`);
    }
    expect(offenders).toEqual([]);
  });

  it("the check sees the entries that do build digests (it could fail)", async () => {
    const home = await homes();
    const digest = COMMAND_ENTRIES.find((c) => c.name === "digest");
    const why = LISTENERS.find((l) => l.kind === "action" && l.id === "digest_why");
    const unfurl = LISTENERS.find((l) => l.kind === "event" && l.id === "link_shared");
    const asked = LISTENERS.find((l) => l.kind === "message" && l.id === "message");
    const adjusted = LISTENERS.find((l) => l.kind === "view" && l.id === "ask_adjust_modal");
    for (const e of [digest?.run, why, unfurl, asked, adjusted])
      expect(builds(home.get(e) as string).length).toBeGreaterThan(0);
  });
});

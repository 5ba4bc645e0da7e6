import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readManifest } from "../../sandbox/slack/manifest/manifest.ts";
import { parseYaml } from "../../sandbox/slack/manifest/yaml.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { parseDashboardLink } from "../../src/digests/dashboard-link.ts";
import { readStepInputs } from "../../src/digests/step-request.ts";
import { STEP } from "../../src/ids.ts";
import { createLogger } from "../../src/log.ts";
import { guardAck } from "../../src/slack/frame/ack-guard.ts";
import { FUNCTIONS } from "../../src/slack/listeners/functions/index.ts";
import { appHome } from "../../templates/app-home.ts";
import { unfurlBlocks } from "../../templates/unfurl.ts";
import { makeView } from "./fixtures/digest-view.ts";

const PLATFORM = "https://app.example.com";

describe("dashboard links that unfurl", () => {
  const parse = (url: string, base = PLATFORM) => parseDashboardLink(url, base);

  it("reads range and filters from /dashboard, /insights, /assets/<a> and /scanners/<s>", () => {
    expect(parse(`${PLATFORM}/dashboard`)).toEqual({ range: "last7d", assetNames: [], scannerNames: [] });
    expect(parse(`${PLATFORM}/insights/?range=last30d&asset=payments%20%2F%20api,web&scanner=sast`)).toEqual({
      range: "last30d",
      assetNames: ["payments / api", "web"],
      scannerNames: ["sast"],
    });
    expect(parse(`${PLATFORM}/assets/payments%20%2F%20api?from=2026-11-01&to=2026-11-15&asset=web`)).toEqual({
      range: "2026-11-01..2026-11-15",
      assetNames: ["payments / api", "web"],
      scannerNames: [],
    });
    expect(parse(`${PLATFORM}/scanners/sca#top`)?.scannerNames).toEqual(["sca"]);
    expect(parse("http://APP.example.com/dashboard")?.range).toBe("last7d");
  });

  it("honours a platform URL with a path and a port", () => {
    expect(parse("http://127.0.0.1:4000/app/dashboard", "http://127.0.0.1:4000/app")).not.toBeNull();
    expect(parse("http://127.0.0.1:4000/dashboard", "http://127.0.0.1:4000/app")).toBeNull();
    expect(parse("http://127.0.0.1:4001/app/dashboard", "http://127.0.0.1:4000/app")).toBeNull();
  });

  it("ignores other hosts, other paths and malformed links", () => {
    for (const url of [
      "https://example.org/dashboard",
      "https://evil.app.example.com/dashboard",
      `${PLATFORM}/`,
      `${PLATFORM}/settings`,
      `${PLATFORM}/dashboard/extra`,
      `${PLATFORM}/assets/`,
      `${PLATFORM}/assets/a/b`,
      `${PLATFORM}/assets/%E0%A4%A`,
      `ftp://app.example.com/dashboard`,
      "not a url",
    ])
      expect(parse(url), url).toBeNull();
  });
});

describe("the step's inputs", () => {
  it("defaults the range and splits filter lists", () => {
    expect(readStepInputs({ channel_id: "C0GENERAL", assets: " a / b , c ,", scanners: "" })).toEqual({
      channelId: "C0GENERAL",
      range: "last7d",
      assetNames: ["a / b", "c"],
      scannerNames: [],
    });
    expect(readStepInputs({ channel_id: "G0PRIVATE1", range: " last30d " }).range).toBe("last30d");
  });

  it("refuses what Workflow Builder could pass but the step cannot use, in words", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /needs a channel/],
      [{ channel_id: "U0MEMBER1" }, /must be a public or private channel/],
      [{ channel_id: "C0GENERAL", range: 7 }, /"Range" input must be text/],
      [{ channel_id: "C0GENERAL", assets: ["a"] }, /"Assets" input must be text/],
      [
        { channel_id: "C0GENERAL", scanners: Array.from({ length: 21 }, (_, i) => `s${i}`).join(",") },
        /at most 20/,
      ],
    ];
    for (const [inputs, message] of cases) expect(() => readStepInputs(inputs)).toThrow(message);
  });
});

describe("the manifest as Slack reads it (the stand-in's own parse)", () => {
  const manifest = readManifest(readFileSync(new URL("../../manifest.yaml", import.meta.url), "utf8"));

  it("declares every custom step the app answers, with the outputs the step returns", () => {
    for (const entry of FUNCTIONS) expect(manifest.functions.has(entry.id), entry.id).toBe(true);
    const step = manifest.functions.get(STEP.sendDigest);
    expect(step?.inputs.find((p) => p.name === "channel_id")).toMatchObject({
      isRequired: true,
      type: "slack#/types/channel_id",
    });
    expect(step?.outputs.map((p) => p.name).sort()).toEqual([
      "findings",
      "fixes",
      "merged_violations",
      "message_link",
      "message_ts",
      "range_label",
      "violations",
    ]);
  });

  it("has an unfurl domain, the links scopes and the link_shared event", () => {
    expect(manifest.unfurlDomains.length).toBeGreaterThan(0);
    expect(manifest.botScopes).toEqual(expect.arrayContaining(["links:read", "links:write"]));
    expect(manifest.botEvents).toContain("link_shared");
  });

  it("the YAML subset: nesting, lists of maps, quotes, block scalars, flow lists, comments", () => {
    const doc = parseYaml(
      [
        "a: 1 # note",
        "b:",
        "  - x: 'it''s'",
        '    y: "q # not a comment"',
        "  - plain",
        "c: >-",
        "  folded",
        "  text",
        "d: [one, two]",
        "e:",
        "- same-indent",
      ].join("\n"),
    );
    expect(doc).toEqual({
      a: 1,
      b: [{ x: "it's", y: "q # not a comment" }, "plain"],
      c: "folded text",
      d: ["one", "two"],
      e: ["same-indent"],
    });
    expect(() => parseYaml("a: {b: 1}")).toThrow(/flow mappings/);
    expect(() => parseYaml('a: "open')).toThrow(/line 1/);
  });
});

describe("templates", () => {
  it("the unfurl is valid Block Kit with the period and the four numbers, and no controls", () => {
    const blocks = unfurlBlocks(makeView());
    expect(checkMessage({ blocks })).toEqual([]);
    const text = JSON.stringify(blocks);
    for (const title of ["Findings", "Violations", "Fixes", "Merged violations"])
      expect(text).toContain(`*${title}*`);
    expect(text).not.toContain("action_id");
  });

  it("the App Home says how Slack reaches the app and which links unfurl", () => {
    const home = (reach: Parameters<typeof appHome>[0]["reach"]) =>
      JSON.stringify(
        appHome({ key: { connected: false }, canManage: false, subscriptions: [], reach }).blocks,
      );
    expect(home({ socketMode: true, unfurlHost: "app.example.com" })).toContain("Connection: Socket Mode");
    expect(home({ socketMode: true, unfurlHost: "app.example.com" })).toContain(
      "Link previews for app.example.com: on",
    );
    expect(home({ socketMode: false })).toContain("Connection: HTTP request URL");
    expect(home({ socketMode: false })).toContain("Link previews: off");
    expect(home({ socketMode: false })).toContain("Send insights digest");
  });
});

describe("acks that cannot sink a request", () => {
  it("an ack that fails (the socket closed under it) is logged, and the handler goes on", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = createLogger({ level: "debug", destination });
    const args = guardAck(
      { ack: () => Promise.reject(new Error("Failed to send a WebSocket message")) },
      log,
    );
    await expect(args.ack?.()).resolves.toBeUndefined();
    expect(lines.join("")).toContain("could not acknowledge the request; handling it anyway");
    const untouched: { body: object; ack?: () => Promise<void> } = { body: {} };
    expect(guardAck(untouched, log)).toBe(untouched);
  });
});

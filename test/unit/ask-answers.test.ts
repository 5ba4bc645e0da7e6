import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkMessageBlocks, checkViewPayload } from "../../sandbox/slack/blockkit/index.ts";
import {
  type AdjustFields,
  composeQuestion,
  decodeAdjust,
  encodeAdjust,
  fieldsOf,
  keptAdjust,
} from "../../src/ask/adjust.ts";
import { extremesOf } from "../../src/ask/figures.ts";
import { keptValue } from "../../src/ask/kept.ts";
import { suggestedPrompts } from "../../src/ask/prompts.ts";
import { decodeProposal, encodeProposal, offered, proposalOf } from "../../src/ask/proposal.ts";
import { readQuestion } from "../../src/ask/read.ts";
import type { AskReading } from "../../src/ask/types.ts";
import { checkMessage, checkView } from "../../src/blockkit/limits.ts";
import { fieldsOf as submittedFields } from "../../src/slack/listeners/views/ask-adjust-check.ts";
import { askAdjustModal } from "../../templates/ask-adjust-modal.ts";
import { askDigestMessage, askExamplesMessage, askProposalMessage } from "../../templates/ask-answer.ts";
import { CORPUS, CORPUS_B, CORPUS_CONTEXT } from "../fixtures/ask-corpus.ts";
import { makeDigest, makeView } from "./fixtures/digest-view.ts";
import { hostile } from "./fixtures/hostile.ts";

const ctx = CORPUS_CONTEXT;
const read = (q: string) => readQuestion(q, ctx);
const span = (r: { from: string; to: string }) => `${r.from}..${r.to}`;

/** What a reading asks, order of names and metrics aside. */
const gist = (r: AskReading) => ({
  intent: r.intent,
  metrics: [...r.metrics].sort(),
  range: span(r.range),
  vs: r.comparison && r.comparison.how !== "previous" ? span(r.comparison) : undefined,
  assets: r.subjects.assets.map((a) => a.value).sort(),
  groups: [...r.subjects.groups].sort(),
  scanners: r.subjects.scanners.map((s) => s.value).sort(),
});

/** The fields as the Adjust button brings them back: from its value, or from the draft kept for it. */
function throughButton(f: AdjustFields): AdjustFields {
  const e = encodeAdjust(f);
  if ("keep" in e) return keptAdjust(e.keep);
  const c = decodeAdjust(e.value);
  if (c.kind !== "fields") throw new Error("an inline value came back as a kept draft");
  return c.fields;
}

/** A small button value, inline. */
function inline(e: { value: string } | { keep: string }): string {
  if (!("value" in e)) throw new Error("expected the value to fit its button");
  return e.value;
}

describe("the Adjust modal", () => {
  const answered = [...CORPUS, ...CORPUS_B]
    .map((e) => read(e.q))
    .filter((r) => !r.problem && ["digest", "drivers", "trend", "export"].includes(r.intent));

  it("a reading put in the modal and submitted unchanged is read as the same reading", () => {
    expect(answered.length).toBeGreaterThan(120);
    for (const r of answered) {
      const fields = throughButton(fieldsOf(r));
      const again = read(composeQuestion(fields));
      expect(again.problem, composeQuestion(fields)).toBeUndefined();
      expect(gist(again), composeQuestion(fields)).toEqual(gist(r));
    }
  });

  it("fits Slack's limits, by the app's table and by the stand-in's", () => {
    const view = askAdjustModal(
      fieldsOf(read("violations for payments in october compared with september")),
      "{}",
    );
    expect(checkView(view)).toEqual([]);
    expect(checkViewPayload(view, "modal")).toEqual([]);
  });

  it("a button value that is not one of ours is refused as out of date", () => {
    for (const junk of [
      undefined,
      "",
      "{",
      '{"w":"digest"}',
      "x".repeat(5_000),
      '{"w":"rm -rf","m":[],"p":"","c":"","a":"","s":""}',
    ])
      expect(() => decodeAdjust(junk)).toThrow(expect.objectContaining({ code: "bad_state" }));
  });
});

describe("answers fit Slack whatever the data", () => {
  it("a digest answer with hostile figures and notes", () => {
    fc.assert(
      fc.property(hostile(2_000, 30), hostile(400, 10), (understood, note) => {
        const m = askDigestMessage({
          understood,
          notes: [note, note],
          slash: note,
          figures: [
            { label: "Violations", current: 1e12, previous: 0, kind: "count", upIsGood: false },
            { label: "Fix rate", current: 0.25, previous: 0.5, kind: "rate", upIsGood: true },
          ],
          extremes: {
            noun: note,
            busiest: { day: "2026-11-03", value: 9 },
            quietest: { day: "2026-11-04", value: 0 },
          },
          digest: makeView(),
          adjust: inline(encodeAdjust(fieldsOf(read("violations last week")))),
        });
        expect(checkMessage(m)).toEqual([]);
        expect(checkMessageBlocks(m.blocks)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it("examples and proposals", () => {
    fc.assert(
      fc.property(hostile(300, 12), fc.array(hostile(300, 8), { maxLength: 12 }), (word, examples) => {
        for (const m of [
          askExamplesMessage({ trouble: { kind: "unread", words: [word, word] }, examples }),
          askExamplesMessage({ trouble: { kind: "manage", action: "pause" }, examples }),
          askExamplesMessage({ trouble: { kind: "too_long", chars: 40_000, limit: 500 }, examples }),
          askExamplesMessage({ trouble: { kind: "compare_subjects", names: [word, word, word] }, examples }),
          askExamplesMessage({
            trouble: { kind: "ambiguous", typed: word, suggestions: examples },
            examples,
          }),
          askProposalMessage({
            understood: word,
            notes: [word],
            description: word,
            mode: "alert",
            confirm: "{}",
            change: "{}",
          }),
          askProposalMessage({ understood: word, notes: [], description: word, mode: "digest", slash: word }),
        ]) {
          expect(checkMessage(m)).toEqual([]);
          expect(checkMessageBlocks(m.blocks)).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("a question too long to read", () => {
  it("is answered with its length and the limit, and no numbers", () => {
    const filler = `${" please".repeat(65)}${" pls".repeat(5)} pls.`;
    const r = read(`show violations last week${filler} for payments api`);
    const m = askExamplesMessage({ trouble: r.problem ?? { kind: "help" }, examples: ["how are we doing"] });
    expect(m.text).toContain("That question is 522 characters long and I read questions of up to 500");
    expect(m.text).toContain("I would rather not answer part of a question");
    expect(JSON.stringify(m.blocks)).not.toContain("Violations");
  });
});

describe("proposals", () => {
  it("travel in the Confirm button and come back the same", () => {
    for (const q of [
      "send me payments violations every Monday at 9",
      "warn me daily at 9 if violations are over 300",
      "send me violations every friday at 5pm London time",
    ]) {
      const p = proposalOf(read(q));
      expect(decodeProposal(inline(encodeProposal(p)))).toEqual({ kind: "proposal", proposal: p });
    }
  });

  it("offered, a proposal carries the id its Confirm is claimed by and the time it can be set up until", () => {
    const now = new Date("2026-11-18T15:00:00Z");
    const p = offered(
      proposalOf(read("send me payments violations every Monday at 9")),
      "ab".repeat(16),
      now,
    );
    expect(p.id).toBe("ab".repeat(16));
    expect(p.until).toBe(Date.UTC(2026, 11, 18, 15) / 1000);
    expect(decodeProposal(inline(encodeProposal(p)))).toEqual({ kind: "proposal", proposal: p });
    // One offered before proposals had ids still reads; its message stands for it.
    const legacy =
      '{"m":"digest","f":"weekly","d":["mon"],"t":"09:00","r":"last7d","a":[],"g":["payments"],"s":[]}';
    expect(decodeProposal(legacy)).toMatchObject({ kind: "proposal", proposal: { groups: ["payments"] } });
    expect(() => decodeProposal(legacy.replace('{"m"', '{"i":"../x","m"'))).toThrow(
      expect.objectContaining({ code: "bad_state" }),
    );
  });

  it("a forged or stale value is refused, never set up", () => {
    for (const junk of [
      '{"m":"digest"}',
      '{"m":"digest","f":"weekly","d":["mon"],"t":"25:00","r":"last7d","a":[],"g":[],"s":[]}',
      // A zone the runtime does not know, or text that is no zone name.
      '{"m":"digest","f":"weekly","d":["mon"],"t":"09:00","r":"last7d","a":[],"g":[],"s":[],"z":"Mars/Olympus"}',
      '{"m":"digest","f":"weekly","d":["mon"],"t":"09:00","r":"last7d","a":[],"g":[],"s":[],"z":"UTC; rm -rf"}',
      "[]",
      "{",
    ])
      expect(() => decodeProposal(junk)).toThrow(expect.objectContaining({ code: "bad_state" }));
  });
});

describe("suggested prompts", () => {
  it("four, naming the account's largest group and a scanner, each read as offered", () => {
    const prompts = suggestedPrompts(ctx);
    expect(prompts).toHaveLength(4);
    expect(prompts.map((p) => p.message)).toEqual([
      "How are we doing this week?",
      "Why did violations change in platform last week?",
      "Show the trend of SAST findings over the last 30 days",
      "Violations in payments this month compared with last month",
    ]);
    for (const p of prompts) expect(read(p.message).problem).toBeUndefined();
  });

  it("without the account's lists, generic ones; with hostile names, only those that read back", () => {
    expect(suggestedPrompts({ ...ctx, assets: [], scanners: [] }).map((p) => p.title)).toEqual([
      "How are we doing?",
      "What changed?",
      "30-day trend",
      "This month vs last",
    ]);
    fc.assert(
      fc.property(fc.array(hostile(300, 6), { minLength: 1, maxLength: 8 }), (names) => {
        const assets = names.map((n, i) => ({ value: `a${i}`, displayValue: `${n} / x${i}` }));
        const scanners = names.map((n, i) => ({ value: `s${i}`, displayValue: n }));
        const prompts = suggestedPrompts({ ...ctx, assets, scanners });
        expect(prompts.length).toBeLessThanOrEqual(4);
        for (const p of prompts) {
          expect(p.title.length).toBeLessThanOrEqual(75);
          expect(readQuestion(p.message, { ...ctx, assets, scanners }).problem).toBeUndefined();
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("a trend answer's busiest and quietest day", () => {
  const series = (values: number[]) =>
    values.map((v, i) => ({
      day: `2026-11-${String(15 + i).padStart(2, "0")}`,
      findings: v * 2,
      violations: v,
      fixed: v,
      merged: 0,
    }));

  it("never names today, still being filled, as the quietest day", () => {
    // Today (Nov 21) has 3 violations so far; the quietest whole day is Nov 20 with 25.
    const digest = makeDigest({
      series: series([40, 52, 61, 38, 70, 25, 3]),
      completeness: {
        gaps: [],
        currentIncomplete: false,
        previousIncomplete: false,
        partialFrom: "2026-11-21",
      },
    });
    for (const metric of ["violations", "findings", "fixes", "fixRate"] as const) {
      const e = extremesOf(metric, digest);
      expect(e?.quietest.day, metric).toBe("2026-11-20");
      expect(e?.days, metric).toBe(6);
    }
    expect(extremesOf("violations", digest)?.busiest).toEqual({ day: "2026-11-19", value: 70 });
  });

  it("with no partial day, every day counts; with only today, there is none to name", () => {
    const whole = makeDigest({ series: series([40, 52, 61, 38, 70, 25, 3]) });
    expect(extremesOf("violations", whole)?.quietest).toEqual({ day: "2026-11-21", value: 3 });
    const todayOnly = makeDigest({
      series: series([3]),
      completeness: {
        gaps: [],
        currentIncomplete: false,
        previousIncomplete: false,
        partialFrom: "2026-11-15",
      },
    });
    expect(extremesOf("violations", todayOnly)).toBeNull();
  });
});

describe("the Adjust round trip with many names", () => {
  // 60 assets in 6 groups whose names, listed in the form, take 1,790 characters: past the 1,200 the
  // button's schema once held, within the 2,000 a button's value holds.
  const groups = ["payments", "platform", "identity", "billing", "search", "growth"];
  const colours = ["amber", "blue", "coral", "delta", "ember", "frost", "gold", "harbor", "iris", "jade"];
  const kinds = ["ledger", "relay", "bridge", "vault", "queue", "cache"];
  const sixty = Array.from({ length: 60 }, (_, i) => ({
    value: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    displayValue: `${groups[i % 6]} / ${colours[Math.floor(i / 6)]}-${kinds[i % 6]}${i < 40 ? "-service" : "-svc"}`,
  }));
  const accountCtx = { ...ctx, assets: sixty, scanners: ctx.scanners };

  /** What the form sends back when submitted as it opened: each text input's initial value. */
  function submittedUnchanged(view: ReturnType<typeof askAdjustModal>, fields: AdjustFields): AdjustFields {
    const values: Record<string, Record<string, unknown>> = {};
    for (const block of view.blocks) {
      if (block.type !== "input") continue;
      const el = (block as { element: Record<string, unknown> }).element;
      const id = el.action_id as string;
      if (el.type === "plain_text_input") {
        expect((el.initial_value as string | undefined)?.length ?? 0).toBeLessThanOrEqual(
          el.max_length as number,
        );
        values[id] = { [id]: { type: "plain_text_input", value: el.initial_value ?? null } };
      } else if (el.type === "static_select") values[id] = { [id]: { selected_option: el.initial_option } };
      else values[id] = { [id]: { selected_options: el.initial_options ?? [] } };
    }
    const read = submittedFields({ view: { state: { values } } } as never);
    expect(read.what).toBe(fields.what);
    return read;
  }

  for (const count of [60, 35]) {
    it(`${count} long asset names: the button, the form's prefill and its submission keep every name`, () => {
      const names = sixty.slice(0, count).map((a) => a.displayValue);
      const asked: AdjustFields = {
        what: "digest",
        metrics: ["violations"],
        period: "lastweek",
        compare: "",
        assets: names.join(", "),
        scanners: "",
      };
      if (count === 60) expect(asked.assets.length).toBe(1_790);
      const question = composeQuestion(asked);
      const first = readQuestion(question, { ...accountCtx, maxChars: question.length });
      expect(first.problem).toBeUndefined();
      expect(first.subjects.assets).toHaveLength(count);
      // The answer's Adjust button, pressed: the fields come back whole, from the button or a kept draft.
      const fields = throughButton(fieldsOf(first));
      expect(fields.assets.split(", ")).toHaveLength(count);
      const view = askAdjustModal(fields, "{}");
      expect(checkView(view)).toEqual([]);
      expect(checkViewPayload(view, "modal")).toEqual([]);
      // Submitted unchanged, the question is the same selection.
      const back = submittedUnchanged(view, fields);
      expect(back).toEqual(fields);
      const again = composeQuestion(back);
      const second = readQuestion(again, { ...accountCtx, maxChars: again.length });
      expect(second.problem).toBeUndefined();
      expect(gist(second)).toEqual(gist(first));
    });
  }

  it("fields too long for a button are kept as a draft the button names, and read back the same", () => {
    const fields: AdjustFields = {
      what: "trend",
      metrics: [],
      period: "last month",
      compare: "",
      assets: sixty.map((a) => a.displayValue).join(", "),
      scanners: Array.from({ length: 20 }, () => "secret scanning").join(", "),
    };
    const e = encodeAdjust(fields);
    expect("keep" in e).toBe(true);
    if ("keep" in e) expect(keptAdjust(e.keep)).toEqual(fields);
    expect(decodeAdjust(keptValue("0123456789abcdef0123456789abcdef"))).toEqual({
      kind: "kept",
      id: "0123456789abcdef0123456789abcdef",
    });
  });
});

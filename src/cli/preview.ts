import { parseCommand } from "../../commands/grammar.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { renderText } from "../blockkit/to-text.ts";
import { renderChartPng } from "../chart/render.ts";
import { chartInputFor } from "../digests/chart-input.ts";
import { AppError } from "../errors.ts";
import { parseCliArgs } from "./args.ts";
import { cliZone, openDigestSource } from "./digest-source.ts";
import { commandText, notThe } from "./words.ts";
import { writeOut } from "./write-out.ts";

const USAGE =
  "insights-digest preview [range] ['asset:\"parent / child\"'] [scanner:name] [--why] [--json] [--chart FILE.png] [--tz Area/City] [--color]";

/**
 * `insights-digest preview [range] [asset:"…"] [scanner:…] [--why] [--json] [--chart FILE.png] [--tz Zone]`:
 * the digest a channel would get, in the terminal. With no analytics URL set it runs against the
 * built-in emulator's demo account, so it works on a fresh clone with nothing configured.
 */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(
    {
      args,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        chart: { type: "string" },
        tz: { type: "string" },
        color: { type: "boolean" },
        why: { type: "boolean", default: false },
      },
    },
    USAGE,
  );
  const command = parseCommand(commandText(positionals));
  if (command.kind !== "digest")
    throw new AppError("bad_syntax", `${notThe(command, "preview")} Usage: ${USAGE}`);
  const tz = cliZone(values.tz);
  const source = await openDigestSource("preview", "preview against your platform");
  try {
    const view = await source.view(command, tz, {
      shareable: true,
      attribution: source.label ? `Preview · ${source.label}` : "Preview",
      // --why: the answer the Why? button gives, drivers and data-gap notices included.
      ...(values.why ? { drivers: "required" as const } : {}),
      previousSeries: values.chart !== undefined,
    });
    const message = digestMessage(view);
    // The chart first: a path that cannot be written fails the command before anything is printed.
    if (values.chart) writeOut(values.chart, renderChartPng(chartInputFor(view)), "the chart");
    if (values.json) process.stdout.write(`${JSON.stringify(message, null, 2)}\n`);
    else
      process.stdout.write(
        `${renderText(message, { color: values.color ?? process.stdout.isTTY === true, width: process.stdout.columns ?? 100 })}\n`,
      );
    if (values.chart) process.stderr.write(`chart written to ${values.chart}\n`);
    return 0;
  } finally {
    await source.close();
  }
}

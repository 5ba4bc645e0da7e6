import { parseCommand } from "../../commands/grammar.ts";
import { AppError } from "../errors.ts";
import { csvAbout, csvFilename, digestCsv } from "../insights/csv.ts";
import { parseCliArgs } from "./args.ts";
import { cliZone, openDigestSource } from "./digest-source.ts";
import { commandText, notThe } from "./words.ts";
import { writeOut } from "./write-out.ts";

const USAGE =
  "insights-digest export [range] ['asset:\"parent / child\"'] [scanner:name] [--tz Area/City] [--out FILE.csv]";

/**
 * `insights-digest export [range] [asset:"…"] [scanner:…] [--tz Zone] [--out FILE.csv]`: the daily
 * series as CSV, the same file `/insights export` uploads to Slack (the header row first, then one
 * row per day: findings, violations, fixes, merged), on stdout or into FILE. What the file holds
 * (range, comparison, filters, generation time) and the name Slack gives it go to stderr, so stdout
 * stays a clean CSV. For scripts: the same words as in Slack, exit 0 with the file, 1 with a message.
 */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(
    { args, allowPositionals: true, options: { tz: { type: "string" }, out: { type: "string" } } },
    USAGE,
  );
  const command = parseCommand(`export ${commandText(positionals)}`);
  if (command.kind !== "export")
    throw new AppError("bad_syntax", `${notThe(command, "export")} Usage: ${USAGE}`);
  const tz = cliZone(values.tz);
  const source = await openDigestSource("export", "export from your platform");
  try {
    const view = await source.view(command, tz);
    const csv = digestCsv(view);
    const about = csvAbout(view).facts.map(({ label, value }) => `${label}: ${value}\n`);
    if (values.out) {
      writeOut(values.out, csv, "the CSV");
      process.stderr.write(`${about.join("")}${view.digest.series.length} days written to ${values.out}\n`);
    } else {
      process.stdout.write(csv);
      process.stderr.write(`${about.join("")}File name in Slack: ${csvFilename(view)}\n`);
    }
    return 0;
  } finally {
    await source.close();
  }
}

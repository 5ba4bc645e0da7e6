/**
 * `insights-digest bench [--quick] [--only drivers,…] [--out DIR]`: load, storm, fault, bad-input and drivers figures on loopback
 * (test/bench/). The bench lives with the tests, so it runs from a source checkout (`npm run bench`),
 * not from the built dist/.
 */
export async function run(args: string[]): Promise<number> {
  const url = new URL("../../test/bench/run.ts", import.meta.url);
  // Imported by URL so the production build does not pull the bench (and its dev dependencies) in.
  const bench = (await import(url.href)) as { benchCli: (args: string[]) => Promise<number> };
  return bench.benchCli(args);
}

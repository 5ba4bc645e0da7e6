import { spawn } from "node:child_process";
import type { Socket } from "node:net";

/**
 * A watcher outside the harness that removes what the harness made if the harness dies without doing
 * it: killed with SIGKILL (vitest's watchdog kills its workers that way when vitest itself is stopped),
 * or crashed before its exit handlers ran. It is a shell in a session of its own (a Ctrl+C or a
 * SIGTERM to the process group does not reach it) reading a pipe only the harness holds: the pipe
 * closes when the harness dies, however it dies. A harness that cleaned up itself says `done` first,
 * and the watcher leaves without touching anything (a later run may have made namespaces of the same
 * names by then).
 */

/** Kills every process of each namespace, deletes the namespaces (their veths and routes go with them), removes the paths. */
const SCRIPT = `
IFS= read -r said
[ "$said" = done ] && exit 0
n=$1; shift
i=0
for ns in "$@"; do
  i=$((i + 1)); [ "$i" -le "$n" ] || break
  for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
done
i=0
for p in "$@"; do
  i=$((i + 1))
  if [ "$i" -le "$n" ]; then ip netns del "$p" 2>/dev/null; else rm -rf "$p"; fi
done
`;

export interface Reaper {
  /** Everything was removed by the harness: the watcher leaves without doing anything. */
  release(): void;
}

/**
 * Starts the watcher for `namespaces` and `paths` (directories or files). It holds nothing of the
 * harness's open: the harness exits as if it were not there.
 */
export function startReaper(o: { namespaces: string[]; paths: string[] }): Reaper {
  const child = spawn(
    "sh",
    ["-c", SCRIPT, "reaper", String(o.namespaces.length), ...o.namespaces, ...o.paths],
    {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    },
  );
  child.on("error", () => undefined);
  child.stdin.on("error", () => undefined);
  child.unref();
  (child.stdin as Socket).unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      child.stdin.end("done\n");
    },
  };
}

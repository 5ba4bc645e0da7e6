#!/bin/sh
# Starts Node for a Procfile process type: the arguments are Node's (flags, then the script and its
# arguments). Where this Node takes --experimental-async-context-frame (Node 22), it is added: without
# it, Node 22 carries AsyncLocalStorage (every request's log context) through a hook on every promise
# the process makes, which the acking path and the digests pay on each await. Node 24 works that way
# by default and Node 20 lacks the flag, so neither gets it. `exec` keeps a single process, which
# receives the platform's signals itself.
flag=--experimental-async-context-frame
if node -e "process.exit(process.allowedNodeEnvironmentFlags.has('$flag') ? 0 : 1)" 2>/dev/null; then
  exec node "$flag" "$@"
fi
exec node "$@"

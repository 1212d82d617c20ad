#!/usr/bin/env bash
# gen.sh — regenerates every SDK under gen/ from proto/ (buf generate with buf.gen.yaml),
# and stamps the package manifests with the versions in versions.env.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
python3 scripts/stamp-versions.py
buf generate

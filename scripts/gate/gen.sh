#!/usr/bin/env bash
# gate/gen.sh — regenerates every SDK under gen/ from proto/ (buf generate with buf.gen.yaml), and
# writes versions.env's versions into the SDKs' manifests. It touches nothing outside gen/.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
python3 scripts/gate/versions.py write --only gen/ >/dev/null
buf generate

#!/usr/bin/env bash
# generate.sh java|ts|python OUT — the executor protocol (proto/) as code for one language,
# with the same pinned plugins that generate the SDKs (buf.gen.yaml at the root), into OUT.
# Each executor's build calls it; the output is build output, never committed.
source "$(dirname "$0")/../../scripts/lib.sh"
lang="${1:?usage: generate.sh java|ts|python OUT}" out="${2:?usage: generate.sh java|ts|python OUT}"
case "$lang" in
  java) plugin="{\"protoc_builtin\":\"java\",\"protoc_path\":\"$BIN/protoc\",\"out\":\"$out\"}" ;;
  ts) plugin="{\"local\":\"$ROOT/node_modules/.bin/protoc-gen-es\",\"out\":\"$out\",\"opt\":[\"target=ts\",\"import_extension=js\"]}" ;;
  python) plugin="{\"local\":\"$ROOT/scripts/gate/protoc-gen-python-grpcio\",\"out\":\"$out\"}" ;;
  *) die "unknown language $lang (java, ts or python)" ;;
esac
buf generate "$ROOT/compatibility-tests/executor" --template "{\"version\":\"v2\",\"clean\":true,\"plugins\":[$plugin]}"

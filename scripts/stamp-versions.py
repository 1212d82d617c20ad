"""stamp-versions.py — writes the versions pinned in versions.env into the package manifests.

versions.env is the one place a version is chosen. The manifests (Maven poms, package.json
files, pyproject.toml) need literal versions of their own, so `make gen` stamps them from
versions.env, and the drift gate fails when a manifest was edited by hand or not re-stamped.
Prints the files it changed; exits non-zero if an expected field is missing.
"""

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_versions() -> dict[str, str]:
    versions = {}
    for line in (ROOT / "versions.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            versions[key] = value
    return versions


def sub_once(text: str, pattern: str, value: str, where: str) -> str:
    """Replace group 2 of the one match of pattern (group 1 + 3 are kept) with value."""
    new, count = re.subn(pattern, lambda m: m.group(1) + value + m.group(3), text, flags=re.S)
    if count != 1:
        sys.exit(f"stamp-versions: expected one match of {pattern!r} in {where}, found {count}")
    return new


def xml_tag(tag: str) -> str:
    return rf"(<{re.escape(tag)}>)([^<]*)(</{re.escape(tag)}>)"


def project_version(artifact: str) -> str:
    # The <version> right after the project's own <artifactId>, not a dependency's.
    return rf"(<artifactId>{re.escape(artifact)}</artifactId>\s*<version>)([^<]*)(</version>)"


def stamp_pom(path: str, artifact: str, properties: dict[str, str], v: dict[str, str]) -> str:
    text = (ROOT / path).read_text()
    text = sub_once(text, project_version(artifact), v["SDK_VERSION"], path)
    for tag, key in properties.items():
        text = sub_once(text, xml_tag(tag), v[key], path)
    return text


def stamp_package_json(path: str, deps: dict[str, str], v: dict[str, str], own_version: bool) -> str:
    manifest = json.loads((ROOT / path).read_text())
    if own_version:
        manifest["version"] = v["SDK_VERSION"]
    for name, key in deps.items():
        section = next(s for s in ("dependencies", "devDependencies") if name in manifest.get(s, {}))
        manifest[section][name] = v[key]
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def stamp_pyproject(path: str, deps: dict[str, str], v: dict[str, str]) -> str:
    text = (ROOT / path).read_text()
    text = sub_once(text, r'(\nversion = ")([^"]*)(")', v["SDK_VERSION"], path)
    for name, key in deps.items():
        text = sub_once(text, rf'("{re.escape(name)}==)([^"]*)(")', v[key], path)
    return text


def stamp_lock_workspace_version(v: dict[str, str]) -> str:
    # The lockfile repeats the workspace package's own version; dependency changes still
    # need `npm install` (scripts/setup-tools.sh does it and refuses a stale lock in CI).
    lock = json.loads((ROOT / "package-lock.json").read_text())
    lock["packages"]["gen/ts"]["version"] = v["SDK_VERSION"]
    return json.dumps(lock, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    v = read_versions()
    wanted = {
        "pom.xml": stamp_pom("pom.xml", "acme-monorepo", {}, v),
        "gen/java/pom.xml": stamp_pom(
            "gen/java/pom.xml",
            "acme-contracts",
            {
                "protobuf.version": "PROTOBUF_JAVA_VERSION",
                "grpc.version": "GRPC_JAVA_VERSION",
                "protovalidate.version": "PROTOVALIDATE_JAVA_VERSION",
            },
            v,
        ),
        "package.json": stamp_package_json(
            "package.json",
            {
                "@bufbuild/buf": "BUF_VERSION",
                "@bufbuild/protoc-gen-es": "PROTOBUF_ES_VERSION",
                "typescript": "TYPESCRIPT_VERSION",
            },
            v,
            own_version=False,
        ),
        "gen/ts/package.json": stamp_package_json(
            "gen/ts/package.json",
            {
                "@bufbuild/protobuf": "PROTOBUF_ES_VERSION",
                "@bufbuild/protovalidate": "PROTOVALIDATE_ES_VERSION",
                "typescript": "TYPESCRIPT_VERSION",
            },
            v,
            own_version=True,
        ),
        "services/auth-node/package.json": stamp_package_json(
            "services/auth-node/package.json",
            {
                "@acme/contracts": "SDK_VERSION",
                "@bufbuild/protobuf": "PROTOBUF_ES_VERSION",
                "@bufbuild/protovalidate": "PROTOVALIDATE_ES_VERSION",
                "@connectrpc/connect": "CONNECT_ES_VERSION",
                "@connectrpc/connect-node": "CONNECT_ES_VERSION",
                "jose": "JOSE_VERSION",
                "@types/node": "NODE_TYPES_VERSION",
                "tinybench": "TINYBENCH_VERSION",
                "typescript": "TYPESCRIPT_VERSION",
            },
            v,
            own_version=False,
        ),
        # The TypeScript compatibility client: the same SDK and runtimes as the services use.
        "compatibility-tests/clients/ts/package.json": stamp_package_json(
            "compatibility-tests/clients/ts/package.json",
            {
                "@acme/contracts": "SDK_VERSION",
                "@bufbuild/protobuf": "PROTOBUF_ES_VERSION",
                "@bufbuild/protovalidate": "PROTOVALIDATE_ES_VERSION",
                "@connectrpc/connect": "CONNECT_ES_VERSION",
                "@connectrpc/connect-node": "CONNECT_ES_VERSION",
                "@types/node": "NODE_TYPES_VERSION",
                "typescript": "TYPESCRIPT_VERSION",
            },
            v,
            own_version=False,
        ),
        "package-lock.json": stamp_lock_workspace_version(v),
        # The service has its own version; only the SDK it depends on follows SDK_VERSION.
        "services/person-spring/pom.xml": sub_once(
            (ROOT / "services/person-spring/pom.xml").read_text(),
            xml_tag("acme-contracts.version"),
            v["SDK_VERSION"],
            "services/person-spring/pom.xml",
        ),
        # The Java compatibility client follows the SDK's version and runs on the SDK's runtimes.
        "compatibility-tests/clients/java/pom.xml": stamp_pom(
            "compatibility-tests/clients/java/pom.xml",
            "compat-client-java",
            {
                "acme-contracts.version": "SDK_VERSION",
                "protobuf.version": "PROTOBUF_JAVA_VERSION",
                "grpc.version": "GRPC_JAVA_VERSION",
                "protovalidate.version": "PROTOVALIDATE_JAVA_VERSION",
            },
            v,
        ),
        # The executor protocol of the compatibility tests, on the SDK's protobuf runtime.
        "compatibility-tests/executor/pom.xml": stamp_pom(
            "compatibility-tests/executor/pom.xml",
            "compat-executor-protocol",
            {"protobuf.version": "PROTOBUF_JAVA_VERSION"},
            v,
        ),
        "gen/python/pyproject.toml": stamp_pyproject(
            "gen/python/pyproject.toml",
            {"protobuf": "PROTOBUF_PYTHON_VERSION", "grpcio": "GRPCIO_VERSION"},
            v,
        ),
    }
    for path, text in wanted.items():
        if (ROOT / path).read_text() != text:
            (ROOT / path).write_text(text)
            print(f"stamped {path}")


if __name__ == "__main__":
    main()

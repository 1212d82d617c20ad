"""Every setting a service reads can be set through its chart, and the chart sets nothing the
service does not read: the names are taken from the services' own sources, so a setting added
to a service and forgotten here fails this suite, and so does a misspelt name in a chart."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from charts import CHARTS, ROOT, Chart, by_kind, render, values_schema

AUTH_CONFIG = ROOT / "services/auth-node/src/config.ts"
PERSON_RESOURCES = ROOT / "services/person-spring/src/main/resources"
PERSON_JAR_GLOB = "services/person-spring/target/person-spring-*-exec.jar"

# Spring Boot settings person-spring reads through Spring itself rather than a ${NAME}
# placeholder of its application.yaml: each must be a property of the service's own classpath
# (checked below against the spring-configuration-metadata.json of the jars it runs with).
SPRING_PROPERTIES = {
    "SPRING_PROFILES_ACTIVE": "spring.profiles.active",
    "SPRING_GRPC_SERVER_KEEPALIVE_CONNECTION_MAXAGE": "spring.grpc.server.keepalive.connection.max-age",
    "SPRING_GRPC_SERVER_KEEPALIVE_CONNECTION_GRACEPERIOD": "spring.grpc.server.keepalive.connection.grace-period",
}

# Settings the chart passes before the service reads them, each with why. An entry fails the
# suite once the service reads the name: then it is simply a setting, and the entry goes.
NOT_READ_YET: dict[str, str] = {}

# Settings a service reads that its chart must not offer, each with why.
NOT_IN_CHART = {
    "PERSON_TRANSPORT_ONLY": "benchmarks only: person-spring then stores nothing; a deployment must never set it",
}


def read_by_service(chart: Chart) -> set[str]:
    if chart.name == "auth-node":
        source = AUTH_CONFIG.read_text()
        return set(re.findall(r'\b(?:int|str|bool)\(\s*"([A-Z][A-Z0-9_]*)"', source)) | set(
            re.findall(r'env\[\s*"([A-Z][A-Z0-9_]*)"\s*\]', source))
    names = set()
    for yaml_file in PERSON_RESOURCES.glob("application*.yaml"):
        # Placeholders outside comments (the comments name ${NAME:default} as an example).
        text = re.sub(r"(^|\s)#.*", "", yaml_file.read_text())
        names |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)[:}]", text))
    return names


def rendered_env(chart: Chart) -> set[str]:
    """Every variable the chart sets in any of its renderings, with every config value given."""
    names = set()
    config = {f"config.{name}": "x" for name in chart.values()["config"]}
    for files in [[]] + [[e] for e in chart.examples()]:
        for sets in ({}, config):
            deployment = by_kind(render(chart.path, *files, sets=sets), "Deployment")[0]
            names |= {e["name"] for e in deployment["spec"]["template"]["spec"]["containers"][0]["env"]}
    return names


@pytest.mark.parametrize("chart", CHARTS, ids=lambda c: c.name)
def test_every_setting_the_service_reads_can_be_set(chart):
    read = read_by_service(chart)
    assert len(read) > 10, f"found only {sorted(read)}: has the way {chart.name} reads settings changed?"
    assert sorted(read - rendered_env(chart) - NOT_IN_CHART.keys()) == []


@pytest.mark.parametrize("chart", CHARTS, ids=lambda c: c.name)
def test_the_chart_sets_only_what_the_service_reads(chart):
    unknown = rendered_env(chart) - read_by_service(chart) - SPRING_PROPERTIES.keys() - NOT_READ_YET.keys()
    assert sorted(unknown) == []


def test_settings_not_read_yet_are_still_not_read():
    read = set().union(*(read_by_service(c) for c in CHARTS))
    for name, why in NOT_READ_YET.items():
        assert name not in read, f"{name} is read now ({why}): remove it from NOT_READ_YET"


@pytest.mark.parametrize("chart", CHARTS, ids=lambda c: c.name)
def test_values_and_their_schema_list_the_same_settings(chart):
    assert sorted(values_schema(chart)["properties"]["config"]["properties"]) == sorted(chart.values()["config"])


def test_spring_settings_are_properties_of_the_service():
    jars = sorted(ROOT.glob(PERSON_JAR_GLOB))
    assert jars, f"no {PERSON_JAR_GLOB}: the suite builds the images (and so the jar) first"
    known = set()
    with zipfile.ZipFile(jars[0]) as boot_jar:
        for name in boot_jar.namelist():
            if name.startswith("BOOT-INF/lib/") and name.endswith(".jar"):
                with zipfile.ZipFile(io.BytesIO(boot_jar.read(name))) as lib:
                    if "META-INF/spring-configuration-metadata.json" in lib.namelist():
                        metadata = json.loads(lib.read("META-INF/spring-configuration-metadata.json"))
                        known |= {p["name"] for p in metadata.get("properties", [])}
    for variable, prop in SPRING_PROPERTIES.items():
        assert prop in known, prop
        # Spring's binding of environment variables: dots become _, dashes go, all upper case.
        assert prop.replace(".", "_").replace("-", "").upper() == variable


def test_settings_kept_out_of_the_charts_are_still_read():
    read = set().union(*(read_by_service(c) for c in CHARTS))
    for name, why in NOT_IN_CHART.items():
        assert name in read, f"{name} is no longer read ({why}): remove it from NOT_IN_CHART"

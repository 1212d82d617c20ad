"""The contracts' gRPC service config: gen/service-config.json, the one definition every SDK
ships, copied into this package at build time. It gives the idempotent RPCs (the reads and
DisableUser) a retry policy on UNAVAILABLE and INTERNAL (a refused or a cut stream).

    channel = grpc.insecure_channel("person-spring:9090", options=channel_options())

RegisterPerson and RegisterPeople are not in it: they are idempotent only on their request_id,
and a service config cannot look into a request. Retry them yourself with the same request_id,
never without one. Login and CreateUser are not idempotent and are left out.
"""

from importlib.resources import files


def service_config_json() -> str:
    """The service config's JSON text, for the grpc.service_config channel option."""
    return files(__package__).joinpath("service-config.json").read_text(encoding="utf-8")


def channel_options() -> list[tuple[str, object]]:
    """Channel options that apply the service config, with retries on (grpcio's default)."""
    return [("grpc.service_config", service_config_json()), ("grpc.enable_retries", 1)]

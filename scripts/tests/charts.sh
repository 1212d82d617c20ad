#!/usr/bin/env bash
# tests/charts.sh — `make test-charts`: the Kubernetes charts under deploy/helm. helm lints each
# one and renders it with its default values, every example values file and the options that
# change what it renders; kubernetes-validate checks every object against the Kubernetes schemas
# offline (strict: unknown fields refused), for the oldest and newest Kubernetes the charts
# support; the charts' own rules (gRPC probes, resources, a non-root read-only container,
# secrets by reference, containers.env's memory) are checked beside them, and broken copies of
# the charts prove every check can fail. Then the rendered pods run in Docker on this checkout's
# images, with exactly their security context and volumes (deploy/tests/pods.py).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
"$ROOT/scripts/services/images.sh"
cd deploy/tests
python -m pytest -q -p no:cacheprovider .

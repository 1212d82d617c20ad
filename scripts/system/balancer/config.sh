#!/usr/bin/env bash
# system/balancer/config.sh — prints the balancer's haproxy.cfg for the system's scale
# (lib-system.sh: replicas, replica_alias). Each front end takes one of the services' ports
# inside the system's network, under the name the single service has (auth-node:50051,
# person-spring:9090, …), so person-spring, web-proxy and every outside client reach the
# replicas through it without knowing how many there are.
#
# Per call, not per connection: HAProxy ends the client's HTTP/2 (or HTTP/1.1) connection
# itself and picks a replica for every request (round robin), over its own connections to the
# replicas — gRPC calls on one client channel land on every replica. Answers carry
# x-acme-replica: the replica's name, so a client (and the tests) can see where a call went.
#
# Health: through each service's gRPC health service (grpc.health.v1.Health/Check) on its
# gRPC port, over HTTP/2 — for auth-node the acme.auth.v1.AuthService entry, which turns
# NOT_SERVING as soon as a replica starts draining; person-spring answers for the whole server
# only (""). The check is a TCP check of the raw HTTP/2 bytes (grpc_health_check.py) that
# passes only when the answer holds HealthCheckResponse{SERVING}. A replica is out after 2
# failed checks 1 s apart and back after 1 good one — or at once when a connection to it fails
# (observe layer4): a replica killed outright refuses nothing, its address just stops
# answering, so without that every call sent to it waited out the connect timeout until the
# checks caught up (calls per second near 0 for 6-13 s after a SIGKILL in the kill test).
source "$(dirname "$0")/../../lib.sh"
source "$ROOT/scripts/system/lib-system.sh"
scale="$(system_scale)"

cat <<'CFG'
global
  # What the container's open-file limit allows (two descriptors a connection).
  maxconn 4000
  log stdout format raw local0 notice

resolvers docker
  # Docker's embedded DNS: a replica that is recreated comes back at another address.
  nameserver dns 127.0.0.11:53
  hold valid 2s

defaults
  mode http
  log global
  option dontlognull
  # Inside the system's network a connection is made in well under a millisecond; one that
  # takes a second goes to a replica that is gone.
  timeout connect 1s
  # Streams (ListPeople, RegisterPeople) may be quiet for long; the services bound them.
  timeout client 10m
  timeout server 10m
  timeout tunnel 10m
  timeout http-request 10s
  timeout http-keep-alive 60s
  timeout check 3s
  # A replica that refuses the connection: the call goes to another one (nothing was sent).
  retries 2
  option redispatch 1
  default-server inter 1s fall 2 rise 1 observe layer4 error-limit 1 on-error mark-down resolvers docker init-addr last,libc,none

frontend stats
  bind :8404
  stats enable
  stats uri /
  stats refresh 5s

# auth-node's RPC port: gRPC, gRPC-Web and Connect, HTTP/2 with prior knowledge or HTTP/1.1.
frontend auth-rpc
  bind :50051
  default_backend auth-rpc
# auth-node's REST twin and its metrics.
frontend auth-rest
  bind :8081
  default_backend auth-rest
frontend auth-metrics
  bind :9464
  default_backend auth-metrics
# person-spring's gRPC port (HTTP/2) and its REST twin (HTTP/1.1).
frontend person-grpc
  bind :9090
  default_backend person-grpc
frontend person-rest
  bind :8080
  default_backend person-rest
CFG

# backend NAME PORT PROTO — a backend with every replica of the service NAME begins with.
backend() {
  local name="$1" port="$2" proto="$3" service="${1%%-*}" i alias grpc_port health
  case "$service" in
    auth) grpc_port=50051 health="$(python3 "$ROOT/scripts/system/balancer/grpc_health_check.py" acme.auth.v1.AuthService)" ;;
    person) grpc_port=9090 health="$(python3 "$ROOT/scripts/system/balancer/grpc_health_check.py" "")" ;;
  esac
  printf '\nbackend %s\n  balance roundrobin\n' "$name"
  printf '  http-response set-header x-acme-replica %%[srv_name]\n'
  printf '  option tcp-check\n  tcp-check connect port %s\n' "$grpc_port"
  printf '  tcp-check send-binary %s\n' "$health"
  # A DATA frame's payload: no compression, 2 bytes, field 1 (status) = 1 (SERVING).
  printf '  tcp-check expect binary 00000000020801\n'
  for ((i = 1; i <= scale; i++)); do
    alias="$(replica_alias "$service" "$i")"
    printf '  server %s %s:%s %s check\n' "$alias" "$alias" "$port" "$proto"
  done
}
backend auth-rpc 50051 "proto h2"
backend auth-rest 8081 ""
backend auth-metrics 9464 ""
backend person-grpc 9090 "proto h2"
backend person-rest 8080 ""

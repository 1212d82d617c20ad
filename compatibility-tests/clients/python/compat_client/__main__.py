"""The command line of the driver (README "The driver contract"):

  live --server person-spring|auth-node --protocol grpc --features f1,f2,...
  golden-encode --vectors golden/vectors.json --out DIR
  golden-decode --vectors golden/vectors.json --peer NAME --in DIR

Exit status 0 once every requested feature is reported; 2 for a usage error."""

import argparse
import os
import sys

from . import auth_features, golden, person_features
from .report import CheckFailed, run_feature
from .session import Session, UsageError

SERVERS = {"person-spring": person_features.FEATURES, "auth-node": auth_features.FEATURES}
# grpcio speaks gRPC only; gRPC-Web and Connect are not something this client declares.
PROTOCOLS = ("grpc",)


def parse(argv):
    parser = argparse.ArgumentParser(prog="compat_client")
    modes = parser.add_subparsers(dest="mode", required=True)
    live = modes.add_parser("live")
    live.add_argument("--server", required=True, choices=sorted(SERVERS))
    live.add_argument("--protocol", required=True)
    live.add_argument("--features", required=True)
    encode = modes.add_parser("golden-encode")
    encode.add_argument("--vectors", required=True)
    encode.add_argument("--out", required=True)
    decode = modes.add_parser("golden-decode")
    decode.add_argument("--vectors", required=True)
    decode.add_argument("--peer", required=True)
    decode.add_argument("--in", dest="indir", required=True)
    args = parser.parse_args(argv)
    if args.mode == "live" and args.protocol not in PROTOCOLS:
        parser.error(f"protocol {args.protocol} is not spoken by the python client (grpc only)")
    return args


def live(args):
    features = SERVERS[args.server]
    session = Session(args.server)
    try:
        for name in [f.strip() for f in args.features.split(",") if f.strip()]:
            fn = features.get(name)
            run_feature(name, (lambda fn=fn: fn(session)) if fn else _unknown)
    finally:
        session.close()


def _unknown():
    raise CheckFailed("unknown feature")


def golden_encode(args):
    vectors = golden.load(args.vectors)
    os.makedirs(args.out, exist_ok=True)
    run_feature("golden-binary", lambda: golden.golden_binary(vectors, args.out))
    run_feature("golden-json", lambda: golden.golden_json(vectors, args.out))
    run_feature("golden-unknown-fields", lambda: golden.golden_unknown_fields(vectors, args.out))


def golden_decode(args):
    vectors = golden.load(args.vectors)
    run_feature("golden-decode", lambda: golden.golden_decode(vectors, args.peer, args.indir))


def main(argv):
    args = parse(argv)
    try:
        {"live": live, "golden-encode": golden_encode, "golden-decode": golden_decode}[args.mode](args)
    except UsageError as error:
        print(f"compat_client: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

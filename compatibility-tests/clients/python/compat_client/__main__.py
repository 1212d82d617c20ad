"""The command line of the Python client (compatibility-tests/README.md):

  exec                      the executor: Steps on stdin, Outcomes on stdout
  golden-encode --vectors golden/vectors.json --out DIR
  golden-decode --vectors golden/vectors.json --peer NAME --in DIR

Exit status 0 once every requested feature is reported (or stdin ended); 2 for a usage error."""

import argparse
import os
import sys

from . import executor, golden
from .report import run_feature


def parse(argv):
    parser = argparse.ArgumentParser(prog="compat_client")
    modes = parser.add_subparsers(dest="mode", required=True)
    modes.add_parser("exec")
    encode = modes.add_parser("golden-encode")
    encode.add_argument("--vectors", required=True)
    encode.add_argument("--out", required=True)
    decode = modes.add_parser("golden-decode")
    decode.add_argument("--vectors", required=True)
    decode.add_argument("--peer", required=True)
    decode.add_argument("--in", dest="indir", required=True)
    return parser.parse_args(argv)


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
    if args.mode == "exec":
        executor.serve()
    else:
        {"golden-encode": golden_encode, "golden-decode": golden_decode}[args.mode](args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

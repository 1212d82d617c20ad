"""synthetic.py PROTO_DIR FILES — adds synthetic packages to a contracts tree until it holds
FILES .proto files: each package acme.synth<N>.v1 is an entity file and a service file, commented,
lint-clean (STANDARD + COMMENTS), formatted as `buf format` writes, with buf.validate rules, so
every step of the gate (lint, format, breaking, the validation-rule diff, generation) has real
work in each file.

    synthetic.py PROTO_DIR --touch 0     adds one field to package 0's entity (a pull request)
    synthetic.py PROTO_DIR --release K   adds message Release<K> to it (a release's change)
"""

from __future__ import annotations

import pathlib
import sys

ENTITY = '''syntax = "proto3";

package acme.synth{n}.v1;

import "buf/validate/validate.proto";
import "google/protobuf/timestamp.proto";

option java_multiple_files = true;
option java_package = "com.acme.synth{n}.v1";

// Item{n} is one record of synthetic package {n}.
message Item{n} {
  // id is the server-assigned identifier.
  string id = 1 [(buf.validate.field).string.uuid = true];
  // title is a display name of 1 to 200 characters.
  string title = 2 [(buf.validate.field).string = {
    min_len: 1
    max_len: 200
  }];
  // count is how many there are, 0 to 1,000.
  int32 count = 3 [(buf.validate.field).int32 = {
    gte: 0
    lte: 1000
  }];
  // tags label the record.
  repeated string tags = 4 [(buf.validate.field).repeated.max_items = 50];
  // state is where the record is in its life.
  State{n} state = 5;
  // created_at is when the record was stored.
  google.protobuf.Timestamp created_at = 6;
}

// State{n} is the life cycle of an Item{n}.
enum State{n} {
  // STATE{n}_UNSPECIFIED is the default: not set.
  STATE{n}_UNSPECIFIED = 0;
  // STATE{n}_ACTIVE is in use.
  STATE{n}_ACTIVE = 1;
  // STATE{n}_ARCHIVED is kept but not in use.
  STATE{n}_ARCHIVED = 2;
}
'''

SERVICE = '''syntax = "proto3";

package acme.synth{n}.v1;

import "acme/synth{n}/v1/item.proto";
import "buf/validate/validate.proto";

option java_multiple_files = true;
option java_package = "com.acme.synth{n}.v1";

// Item{n}Service stores and reads Item{n} records.
service Item{n}Service {
  // CreateItem stores an item.
  rpc CreateItem(CreateItemRequest) returns (CreateItemResponse);
  // GetItem reads one item by id.
  rpc GetItem(GetItemRequest) returns (GetItemResponse);
  // ListItems streams the items whose title contains a text.
  rpc ListItems(ListItemsRequest) returns (stream ListItemsResponse);
}

// CreateItemRequest carries the item to store.
message CreateItemRequest {
  // item is the item; the server assigns its id.
  Item{n} item = 1 [(buf.validate.field).required = true];
}

// CreateItemResponse carries the stored item.
message CreateItemResponse {
  // item is the stored item, with its id.
  Item{n} item = 1;
}

// GetItemRequest names an item.
message GetItemRequest {
  // id is the item's id.
  string id = 1 [(buf.validate.field).string.uuid = true];
}

// GetItemResponse carries the item read.
message GetItemResponse {
  // item is the item.
  Item{n} item = 1;
}

// ListItemsRequest filters the items.
message ListItemsRequest {
  // title_contains is a text the title must contain.
  string title_contains = 1 [(buf.validate.field).string.max_len = 200];
}

// ListItemsResponse is one item of the list.
message ListItemsResponse {
  // item is the item.
  Item{n} item = 1;
}
'''

TOUCH_ANCHOR = "  google.protobuf.Timestamp created_at = 6;\n"
TOUCH = TOUCH_ANCHOR + "  // note is a free text added by a pull request.\n  string note = 7;\n"


def fill(template: str, n: int) -> str:
    return template.replace("{n}", str(n))


def package(proto: pathlib.Path, n: int) -> pathlib.Path:
    return proto / f"acme/synth{n}/v1"


def grow(proto: pathlib.Path, files: int) -> int:
    """Adds packages until the tree has at least `files` files; returns how many it has."""
    have = len(list(proto.rglob("*.proto")))
    n = 0
    while have < files:
        d = package(proto, n)
        if not d.exists():
            d.mkdir(parents=True)
            (d / "item.proto").write_text(fill(ENTITY, n))
            (d / "item_service.proto").write_text(fill(SERVICE, n))
            have += 2
        n += 1
    return have


def edited(proto: pathlib.Path) -> pathlib.Path:
    """The file releases and pull requests edit: package 0's entity, or in a tree without
    synthetic packages (4 files: today's contracts) the Person contract."""
    synthetic = package(proto, 0) / "item.proto"
    return synthetic if synthetic.exists() else proto / "acme/person/v1/person.proto"


def main(args: list[str]) -> int:
    proto = pathlib.Path(args[0])
    if args[1] in ("--touch", "--release"):
        f = edited(proto)
        text = f.read_text()
        if args[1] == "--touch" and TOUCH_ANCHOR in text:
            f.write_text(text.replace(TOUCH_ANCHOR, TOUCH))
        else:
            name = f"Release{int(args[2])}" if args[1] == "--release" else "Touched"
            f.write_text(text + f"\n// {name} is a message added by a change to the tree.\nmessage {name} {{\n"
                         f"  // name names it.\n  string name = 1;\n}}\n")
    else:
        print(grow(proto, int(args[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

package image_test

import (
	"testing"

	"github.com/acme/contracts/gate/internal/schematest"
)

const source = `syntax = "proto3";
package a.v1;
import "buf/validate/validate.proto";

service S {
  rpc Get(Req) returns (Res);
}

message Req {
  string name = 1 [(buf.validate.field).string.max_len = 5];
  oneof kind {
    string x = 2;
  }
  message Inner {
    int32 n = 1;
  }
}

message Res {}

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
}
`

func TestIndex(t *testing.T) {
	im := schematest.Compile(t, "test", map[string]string{"a/v1/a.proto": source})
	if !im.IsImport("buf/validate/validate.proto") || im.IsImport("a/v1/a.proto") {
		t.Fatal("imports")
	}
	ix := im.Index()
	for _, n := range []string{"a.v1.S", "a.v1.S.Get", "a.v1.Req", "a.v1.Req.name", "a.v1.Req.kind", "a.v1.Req.x", "a.v1.Req.Inner.n",
		"a.v1.Color", "a.v1.COLOR_RED", "a/v1/a.proto"} {
		if !ix.Has(n) {
			t.Errorf("%s is not indexed", n)
		}
	}
	if ix.Has("buf.validate.FieldRules") {
		t.Error("an import's declarations are indexed")
	}
	for _, c := range []struct {
		line, column int
		want         string
	}{
		{10, 3, "a.v1.Req.name"}, // the field's first character
		{10, 40, "a.v1.Req.name"},
		{9, 1, "a.v1.Req"},
		{12, 5, "a.v1.Req.x"},
		{11, 3, "a.v1.Req.kind"},
		{15, 5, "a.v1.Req.Inner.n"},
		{6, 3, "a.v1.S.Get"},
		{23, 3, "a.v1.COLOR_RED"},
		{2, 1, ""},
	} {
		if got := ix.At("a/v1/a.proto", c.line, c.column); got != c.want {
			t.Errorf("%d:%d is %q, want %q", c.line, c.column, got, c.want)
		}
	}
}

func TestFingerprintIgnoresPositionsButNotComments(t *testing.T) {
	fp := func(src string) string {
		return schematest.Compile(t, "x", map[string]string{"a.proto": src}).Index().Fingerprint("a.proto")
	}
	base := "syntax = \"proto3\";\npackage a;\n// M is m.\nmessage M {}\n"
	if fp(base) != fp("\n\n"+base) {
		t.Error("moving the text changed the fingerprint")
	}
	if fp(base) == fp(`syntax = "proto3";`+"\npackage a;\n// M is another m.\nmessage M {}\n") {
		t.Error("a comment edit left the fingerprint")
	}
}

func TestBadImages(t *testing.T) {
	for name, data := range map[string][]byte{"empty": {}, "not protobuf": []byte("\xff\xff\xff")} {
		if _, err := parse(name, data); err == nil {
			t.Errorf("%s was read", name)
		}
	}
}

package schema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/acme/contracts/registry/schema"
	"google.golang.org/protobuf/types/descriptorpb"
)

const money = `syntax = "proto3";
package demo.v1;
import "google/protobuf/timestamp.proto";
import "buf/validate/validate.proto";
message Money {
  int64 cents = 1 [(buf.validate.field).int64.gte = 0];
  google.protobuf.Timestamp at = 2;
}
`

func TestCompile(t *testing.T) {
	ctx := context.Background()
	text, err := schema.Compile(ctx, "demo/v1/money.proto", money, nil)
	if err != nil {
		t.Fatal(err)
	}
	if text.Main.GetName() != "demo/v1/money.proto" || text.Image.IsImport("demo/v1/money.proto") ||
		!text.Image.IsImport("buf/validate/validate.proto") || !text.Image.IsImport("google/protobuf/timestamp.proto") {
		t.Errorf("own file and imports: main %s, files %d", text.Main.GetName(), len(text.Image.Set.GetFile()))
	}
	// The serialized form compiles to the same file, under the name it carries.
	serialized, err := text.Serialized()
	if err != nil {
		t.Fatal(err)
	}
	again, err := schema.Compile(ctx, "ignored.proto", serialized, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Main.GetName() != "demo/v1/money.proto" || len(again.Main.GetMessageType()[0].GetField()) != 2 {
		t.Errorf("serialized round trip: %v", again.Main)
	}
	// A reference supplies an import under the reference's name.
	order := `syntax = "proto3";
package demo.v1;
import "money.proto";
message Order { Money total = 1; }
`
	refs := map[string]*descriptorpb.FileDescriptorProto{"money.proto": renamed(text.Main, "money.proto")}
	if _, err := schema.Compile(ctx, "order.proto", order, refs); err != nil {
		t.Errorf("with a reference: %v", err)
	}
}

func renamed(f *descriptorpb.FileDescriptorProto, name string) *descriptorpb.FileDescriptorProto {
	return &descriptorpb.FileDescriptorProto{Name: &name, Package: f.Package, Dependency: f.Dependency,
		MessageType: f.MessageType, Syntax: f.Syntax}
}

func TestCompileRefusesInvalidSchemas(t *testing.T) {
	cases := map[string]string{
		"duplicate field numbers": `syntax = "proto3"; message A { int32 a = 1; int32 b = 1; }`,
		"an unknown import":       `syntax = "proto3"; import "nowhere.proto"; message A { int32 a = 1; }`,
		"an unknown type":         `syntax = "proto3"; message A { Missing m = 1; }`,
		"not protobuf":            `{"type": "record"}`,
		"a bad descriptor name":   "CgA=", // a FileDescriptorProto with an empty name: read as text
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := schema.Compile(context.Background(), "a.proto", text, nil)
			if !schema.IsInvalid(err) {
				t.Fatalf("want an invalid-schema error, got %v", err)
			}
			if strings.TrimSpace(err.Error()) == "" {
				t.Error("the error says nothing")
			}
		})
	}
}

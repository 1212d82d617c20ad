package rulediff_test

import (
	"strings"
	"testing"

	"github.com/acme/contracts/gate/internal/schematest"
	"github.com/acme/contracts/gate/rulediff"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/descriptorpb"
)

// withUnknownRule gives field f of t.v1.M a buf.validate rule this build does not know, as a
// newer validate.proto would: field 999 of StringRules, inside FieldRules.string (14), inside
// the buf.validate.field extension (1159).
func withUnknownRule(set *descriptorpb.FileDescriptorSet, value uint64) {
	var rules []byte
	rules = protowire.AppendTag(rules, 999, protowire.VarintType)
	rules = protowire.AppendVarint(rules, value)
	var field []byte
	field = protowire.AppendTag(field, 14, protowire.BytesType)
	field = protowire.AppendBytes(field, rules)
	var ext []byte
	ext = protowire.AppendTag(ext, 1159, protowire.BytesType)
	ext = protowire.AppendBytes(ext, field)
	for _, f := range set.GetFile() {
		for _, m := range f.GetMessageType() {
			if m.GetName() == "M" {
				opts := &descriptorpb.FieldOptions{}
				opts.ProtoReflect().SetUnknown(ext)
				m.GetField()[0].Options = opts
			}
		}
	}
}

func TestARuleThisBuildDoesNotKnowCannotBeOrdered(t *testing.T) {
	base := schematest.Compile(t, "base", map[string]string{"t.proto": request(`string f = 1;`)})
	head := schematest.Compile(t, "head", map[string]string{"t.proto": request(`string f = 1;`)})
	withUnknownRule(base.Set, 1)
	withUnknownRule(head.Set, 2)
	findings, err := rulediff.Images(base, head)
	if err != nil {
		t.Fatal(err)
	}
	if len(findings) != 1 || findings[0].Rule != "VALIDATE_UNKNOWN_RULE_CHANGED" || findings[0].Element != "t.v1.M.f" {
		t.Fatalf("findings %v", findings)
	}
	// The same unknown rule on both sides is no change.
	same := schematest.Compile(t, "head", map[string]string{"t.proto": request(`string f = 1;`)})
	withUnknownRule(same.Set, 1)
	if findings, err := rulediff.Images(base, same); err != nil || len(findings) != 0 {
		t.Fatalf("findings %v, %v", findings, err)
	}
}

func TestRulesThatDoNotCompileFailClosed(t *testing.T) {
	base := schematest.Compile(t, "base", map[string]string{"t.proto": request(`string a = 1;`)})
	head := schematest.Compile(t, "head", map[string]string{"t.proto": request(
		`string a = 1; int32 n = 2 [(buf.validate.field).cel = {id: "broken", message: "x", expression: "this +"}];`)})
	_, err := rulediff.Images(base, head)
	if err == nil || !strings.Contains(err.Error(), "t.v1.M.n") {
		t.Fatalf("rules that do not compile gave %v", err)
	}
}

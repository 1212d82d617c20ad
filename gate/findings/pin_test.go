package findings_test

import (
	"testing"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/internal/schematest"
)

// The base and head of one change that deletes one of everything; the violations are what buf
// 1.75.0 printed for it (`buf breaking --error-format json`, FILE rules), positions included.
const pinBase = `syntax = "proto3";
package p.v1;
message M {
  string keep = 1;
  string gone = 2;
  message N { int32 q = 1; }
  oneof o { string s = 3; }
  enum E { E_UNSPECIFIED = 0; E_ONE = 1; }
}
enum Top { TOP_UNSPECIFIED = 0; TOP_ONE = 1; }
service S { rpc Keep(M) returns (M); rpc Gone(M) returns (M); }
message TopGone {}
import "google/protobuf/descriptor.proto";
extend google.protobuf.MessageOptions { string gone_ext = 50001; }
message Holder { extend google.protobuf.FieldOptions { string nested_ext = 50002; } }
message R { reserved 5; string a = 1; }
`

const pinHead = `syntax = "proto3";
package p.v1;
message M {
  string keep = 1;
  enum E { E_UNSPECIFIED = 0; }
}
enum Top { TOP_UNSPECIFIED = 0; }
service S { rpc Keep(M) returns (M); }
import "google/protobuf/descriptor.proto";
message Holder {}
message R { string a = 1; }
`

func TestADeletionIsPinnedToWhatItDeleted(t *testing.T) {
	base := schematest.Compile(t, "base", map[string]string{"p/x.proto": pinBase})
	head := schematest.Compile(t, "head", map[string]string{"p/x.proto": pinHead})
	for _, c := range []struct {
		v               bufcli.Violation
		holder, element string
	}{
		{bufcli.Violation{Path: "p/x.proto", StartLine: 3, StartColumn: 1, Type: "FIELD_NO_DELETE",
			Message: `Previously present field "2" with name "gone" on message "M" was deleted.`}, "p.v1.M", "p.v1.M.gone"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 3, StartColumn: 1, Type: "FIELD_NO_DELETE",
			Message: `Previously present field "3" with name "s" on message "M" was deleted.`}, "p.v1.M", "p.v1.M.s"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 3, StartColumn: 1, Type: "ONEOF_NO_DELETE",
			Message: `Previously present oneof "o" on message "M" was deleted.`}, "p.v1.M", "p.v1.M.o"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 3, StartColumn: 1, Type: "MESSAGE_NO_DELETE",
			Message: `Previously present message "M.N" was deleted from file.`}, "p.v1.M", "p.v1.M.N"},
		// Enum values are scoped beside their enum, and buf names only the number.
		{bufcli.Violation{Path: "p/x.proto", StartLine: 5, StartColumn: 3, Type: "ENUM_VALUE_NO_DELETE",
			Message: `Previously present enum value "1" on enum "E" was deleted.`}, "p.v1.M.E", "p.v1.M.E_ONE"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 7, StartColumn: 1, Type: "ENUM_VALUE_NO_DELETE",
			Message: `Previously present enum value "1" on enum "Top" was deleted.`}, "p.v1.Top", "p.v1.TOP_ONE"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 8, StartColumn: 1, Type: "RPC_NO_DELETE",
			Message: `Previously present RPC "Gone" on service "S" was deleted.`}, "p.v1.S", "p.v1.S.Gone"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 1, StartColumn: 1, Type: "MESSAGE_NO_DELETE",
			Message: `Previously present message "TopGone" was deleted from file.`}, "p/x.proto", "p.v1.TopGone"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 1, StartColumn: 1, Type: "EXTENSION_NO_DELETE",
			Message: `Previously present extension "gone_ext" was deleted from file.`}, "p/x.proto", "p.v1.gone_ext"},
		{bufcli.Violation{Path: "p/x.proto", StartLine: 10, StartColumn: 1, Type: "EXTENSION_NO_DELETE",
			Message: `Previously present extension "Holder.nested_ext" was deleted from file.`}, "p.v1.Holder", "p.v1.Holder.nested_ext"},
		// A reserved range is no declaration: it stays on its message.
		{bufcli.Violation{Path: "p/x.proto", StartLine: 11, StartColumn: 1, Type: "RESERVED_MESSAGE_NO_DELETE",
			Message: `Previously present reserved range "[5]" on message "R" is missing values: [5] were removed.`}, "p.v1.R", "p.v1.R"},
		// Not a deletion: pinned where buf points.
		{bufcli.Violation{Path: "p/x.proto", StartLine: 4, StartColumn: 3, Type: "FIELD_SAME_TYPE",
			Message: `Field "1" with name "keep" on message "M" changed type.`}, "p.v1.M.keep", "p.v1.M.keep"},
	} {
		t.Run(c.v.Type+" "+c.element, func(t *testing.T) {
			if findings.IsDeletion(c.v) != (c.holder != c.element) {
				t.Errorf("IsDeletion(%q) = %v", c.v.Message, findings.IsDeletion(c.v))
			}
			// Without the side that still has it, the deletion stays on its holder.
			if got := findings.Pin(c.v, head, nil).Element; got != c.holder {
				t.Errorf("without the base: %q, want %q", got, c.holder)
			}
			pinned := findings.Pin(c.v, head, base)
			if pinned.Element != c.element {
				t.Errorf("with the base: %q, want %q", pinned.Element, c.element)
			}
			if want := map[bool]string{true: c.holder}[c.holder != c.element]; pinned.Holder != want {
				t.Errorf("holder %q, want %q", pinned.Holder, want)
			}
		})
	}
}

// A name the other side does not declare (a message buf worded differently, a value number it
// never had) leaves the finding on its holder rather than on an element nobody declared.
func TestADeletionNotFoundStaysOnItsHolder(t *testing.T) {
	base := schematest.Compile(t, "base", map[string]string{"p/x.proto": pinBase})
	head := schematest.Compile(t, "head", map[string]string{"p/x.proto": pinHead})
	v := bufcli.Violation{Path: "p/x.proto", StartLine: 7, StartColumn: 1, Type: "ENUM_VALUE_NO_DELETE",
		Message: `Previously present enum value "9" on enum "Top" was deleted.`}
	if got := findings.Pin(v, head, base).Element; got != "p.v1.Top" {
		t.Errorf("%q, want p.v1.Top", got)
	}
}

package compare_test

import (
	"strings"
	"testing"

	"github.com/acme/contracts/gate/compare"
	"github.com/acme/contracts/gate/internal/schematest"
)

func TestAffectedFollowsImportersTransitively(t *testing.T) {
	// c.proto holds the RPC that says who sends a.proto's message; it sees a.proto through b.
	im := schematest.Compile(t, "head", map[string]string{
		"a.proto": "syntax = \"proto3\";\npackage t;\nmessage A { string s = 1; }\n",
		"b.proto": "syntax = \"proto3\";\npackage t;\nimport \"a.proto\";\nmessage B { A a = 1; }\n",
		"c.proto": "syntax = \"proto3\";\npackage t;\nimport \"b.proto\";\nservice S { rpc Call(B) returns (B); }\n",
		"d.proto": "syntax = \"proto3\";\npackage t;\nmessage D {}\n",
	})
	for _, c := range []struct {
		changed []string
		want    string
	}{
		{[]string{"a.proto"}, "a.proto b.proto c.proto"},
		{[]string{"b.proto"}, "b.proto c.proto"},
		{[]string{"d.proto"}, "d.proto"},
		{[]string{"gone.proto"}, ""},
		{[]string{"buf/validate/validate.proto"}, ""},
	} {
		if got := strings.Join(compare.Affected(im, c.changed), " "); got != c.want {
			t.Errorf("%v: %q, want %q", c.changed, got, c.want)
		}
	}
}

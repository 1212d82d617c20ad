package rulediff

import (
	"fmt"
	"sort"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Rule names that are not a field of one buf.validate rule type: several rules compared as one
// set of values, and the rules of a field, oneof or message as a whole.
var extraNames = map[string]string{
	"range":          "numeric bounds (gt, gte, lt, lte, const, in, not_in) changed together",
	"items":          "repeated min_items and max_items changed together",
	"pairs":          "map min_pairs and max_pairs changed together",
	"required":       "required",
	"ignore":         "ignore",
	"cel":            "CEL (a field's or a message's cel and cel_expression)",
	"oneof_required": "oneof required",
	"message_oneof":  "message oneof",
	"predefined":     "predefined (an extension of a rule type with its own CEL)",
	"rule_type":      "rule type (the rules moved to another type family)",
	"unknown_rule":   "buf.validate field unknown to this version of the check",
}

// nestedRules are the FieldRules fields that hold rules of elements, keys or values: their rules
// are reported under their own names.
var nestedRules = map[protoreflect.Name]bool{"items": true, "keys": true, "values": true, "example": true}

// RuleNames lists every rule name, lower case: each field of each buf.validate rule type (the
// protovalidate version this is built with), and the names of extraNames.
func RuleNames() []string {
	seen := map[string]bool{}
	for name := range extraNames {
		seen[name] = true
	}
	fields := (&validate.FieldRules{}).ProtoReflect().Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		f := fields.Get(i)
		if f.ContainingOneof() == nil || f.Message() == nil {
			continue
		}
		rules := f.Message().Fields()
		for j := 0; j < rules.Len(); j++ {
			if r := rules.Get(j); !nestedRules[r.Name()] {
				seen[string(r.Name())] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Rule is one rule id with what it reports.
type Rule struct {
	ID      string
	Change  Change
	Purpose string
}

// Rules lists every rule id this package can report, with a one-sentence purpose.
func Rules() []Rule {
	var out []Rule
	for _, name := range RuleNames() {
		what := extraNames[name]
		if what == "" || what == name {
			what = "`" + name + "`"
		}
		for _, c := range []Change{Tightened, Loosened, Changed} {
			var purpose string
			switch c {
			case Tightened:
				purpose = fmt.Sprintf("Reports a buf.validate %s rule added or tightened on a message clients send: it refuses requests that passed before.", what)
			case Loosened:
				purpose = fmt.Sprintf("Reports a buf.validate %s rule removed or loosened on a message servers send: clients that validate answers refuse what passes now.", what)
			case Changed:
				purpose = fmt.Sprintf("Reports a buf.validate %s rule changed in a way that cannot be ordered: it breaks senders and validators alike.", what)
			}
			out = append(out, Rule{ID: ruleID(name, c), Change: c, Purpose: purpose})
		}
	}
	return out
}

// IsRuleID says whether id is one of Rules' ids.
func IsRuleID(id string) bool {
	for _, c := range []Change{Tightened, Loosened, Changed} {
		suffix := "_" + strings.ToUpper(c.String())
		if strings.HasPrefix(id, "VALIDATE_") && strings.HasSuffix(id, suffix) {
			name := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(id, "VALIDATE_"), suffix))
			for _, n := range RuleNames() {
				if n == name {
					return true
				}
			}
		}
	}
	return false
}

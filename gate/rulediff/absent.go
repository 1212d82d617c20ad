package rulediff

import (
	"errors"
	"fmt"
	"strings"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// violation is one rule that refuses an absent value: its catalog name, its path in
// buf.validate and protovalidate's own message.
type violation struct {
	name, path, message string
}

// absentViolations evaluates the rules of one field (or oneof) of a message in which it is
// absent, with protovalidate itself: a field without presence is then its zero value and its
// rules apply (unless ignored); a field with presence is unset, and only required applies.
func (s *schema) absentViolations(m protoreflect.MessageDescriptor, target protoreflect.Descriptor) ([]violation, error) {
	v, err := s.validatorFor()
	if err != nil {
		return nil, err
	}
	only := protovalidate.FilterFunc(func(_ protoreflect.Message, d protoreflect.Descriptor) bool {
		return d.FullName() == target.FullName()
	})
	err = v.Validate(dynamicpb.NewMessage(m), protovalidate.WithFilter(only))
	var invalid *protovalidate.ValidationError
	switch {
	case err == nil:
		return nil, nil
	case errors.As(err, &invalid):
	default:
		return nil, fmt.Errorf("evaluate the rules of %s without a value: %w", target.FullName(), err)
	}
	var out []violation
	for _, x := range invalid.Violations {
		name, path := ruleName(x)
		out = append(out, violation{name: name, path: path, message: x.Proto.GetMessage()})
	}
	return out, nil
}

// ruleName maps the rule a violation names (its path in FieldRules) to the catalog: the last
// field of the path, "cel" for a CEL rule, "predefined" for an extension.
func ruleName(x *protovalidate.Violation) (string, string) {
	var parts []string
	name := ""
	for _, e := range x.Proto.GetRule().GetElements() {
		n := e.GetFieldName()
		parts = append(parts, n)
		switch {
		case strings.HasPrefix(n, "["):
			name = "predefined"
		case n == "cel" || n == "cel_expression":
			name = "cel"
		case name != "predefined" && name != "cel":
			name = n
		}
	}
	path := strings.Join(parts, ".")
	switch {
	case name == "" && x.Proto.GetRuleId() == "required":
		return "oneof_required", "required"
	case name == "":
		return "cel", x.Proto.GetRuleId()
	case name == "cel" && x.Proto.GetRuleId() != "":
		return name, "cel[" + x.Proto.GetRuleId() + "]"
	}
	if !isName(name) {
		name = "unknown_rule"
	}
	return name, path
}

func isName(n string) bool {
	for _, k := range RuleNames() {
		if k == n {
			return true
		}
	}
	return false
}

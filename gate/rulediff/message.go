package rulediff

import (
	"fmt"
	"sort"
	"strings"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// messageRules compares a message's own rules: its CEL rules and its message-level oneof rules.
func (d *differ) messageRules(b, h protoreflect.MessageDescriptor, a at) error {
	rb, err := protovalidate.ResolveMessageRules(b)
	if err != nil {
		return fmt.Errorf("read the rules of %s in the base: %w", b.FullName(), err)
	}
	rh, err := protovalidate.ResolveMessageRules(h)
	if err != nil {
		return fmt.Errorf("read the rules of %s: %w", h.FullName(), err)
	}
	mb, mh := rulesOf(rb), rulesOf(rh)
	a = a.under("message.")
	d.cel(a, mb, mh)
	d.messageOneofs(a, b, mb, mh)
	d.unknownRules(a, "buf.validate.MessageRules", mb, mh)
	return nil
}

// messageOneofs compares the message-level oneof rules (at most one of these fields set; with
// required, exactly one), each known by its list of fields. A new rule is harmless to old
// clients only when it is not required and at most one of its fields existed before (an old
// client cannot have set two).
func (d *differ) messageOneofs(a at, b protoreflect.MessageDescriptor, mb, mh rmsg) {
	type rule struct {
		fields   []string
		required bool
	}
	read := func(r rmsg) map[string]rule {
		out := map[string]rule{}
		if !r.has("oneof") {
			return out
		}
		l := r.get("oneof").List()
		for i := 0; i < l.Len(); i++ {
			m := rmsg{l.Get(i).Message()}
			fields := m.strings("fields", false)
			sorted := append([]string{}, fields...)
			sort.Strings(sorted)
			out[strings.Join(sorted, ", ")] = rule{fields, m.flag("required")}
		}
		return out
	}
	rb, rh := read(mb), read(mh)
	var keys []string
	for k := range rb {
		keys = append(keys, k)
	}
	for k := range rh {
		if _, ok := rb[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		x, inB := rb[k]
		y, inH := rh[k]
		path := "oneof[" + k + "]"
		show := func(r rule) string { return fmt.Sprintf("{fields: [%s], required: %v}", k, r.required) }
		switch {
		case !inB:
			existed := 0
			for _, f := range y.fields {
				if b.Fields().ByName(protoreflect.Name(f)) != nil {
					existed++
				}
			}
			if y.required || existed > 1 {
				d.report(a, "message_oneof", path, Tightened, "unset", show(y))
			}
		case !inH:
			d.report(a, "message_oneof", path, Loosened, show(x), "unset")
		case x.required != y.required:
			c := Tightened
			if x.required {
				c = Loosened
			}
			d.report(a, "message_oneof", path, c, show(x), show(y))
		}
	}
}

// oneof compares a oneof's rules (required); a new oneof that is required refuses every old
// client, which sets none of its fields.
func (d *differ) oneof(bo, ho protoreflect.OneofDescriptor, way Direction) error {
	rh, err := protovalidate.ResolveOneofRules(ho)
	if err != nil {
		return fmt.Errorf("read the rules of %s: %w", ho.FullName(), err)
	}
	a := at{element: ho.FullName(), head: ho, direction: way, path: "oneof."}
	if bo == nil {
		if rh.GetRequired() {
			d.reportText(a, "oneof_required", "required", Tightened, "no oneof", "required",
				fmt.Sprintf("%s: a new oneof that is required on a message %s; an old client sets none of its fields and is refused; breaks %s.",
					ho.FullName(), way, who(Tightened)))
		}
		return nil
	}
	rb, err := protovalidate.ResolveOneofRules(bo)
	if err != nil {
		return fmt.Errorf("read the rules of %s in the base: %w", bo.FullName(), err)
	}
	a.base = bo
	ob, oh := rulesOf(rb), rulesOf(rh)
	if vb, vh := ob.flag("required"), oh.flag("required"); vb != vh {
		c := Tightened
		if vb {
			c = Loosened
		}
		d.report(a, "oneof_required", "required", c, fmt.Sprint(vb), fmt.Sprint(vh))
	}
	d.unknownRules(a, "buf.validate.OneofRules", ob, oh)
	return nil
}

// newField judges the rules a new field arrives with by the value an old client sends there:
// none. If protovalidate refuses a message without it, every old client is refused.
func (d *differ) newField(h protoreflect.MessageDescriptor, hf protoreflect.FieldDescriptor, way Direction) error {
	if !Tightened.Breaks(way) {
		return nil // servers send it: old clients do not know the field, new ones are answered by new servers
	}
	refused, err := d.head.absentViolations(h, hf)
	if err != nil {
		return err
	}
	a := at{element: hf.FullName(), head: hf, direction: way}
	for _, v := range refused {
		d.reportText(a, v.name, v.path, Tightened, "no field", v.path,
			fmt.Sprintf("%s: a new field whose rule %s refuses its absence, on a message %s; an old client never sets it and is refused (%q); breaks %s.",
				hf.FullName(), v.path, way, v.message, who(Tightened)))
	}
	return nil
}

// deletedField judges the rules a field leaves with: if they refused its absence, a client that
// validates answers with the old schema refuses every answer from now on.
func (d *differ) deletedField(h protoreflect.MessageDescriptor, bf protoreflect.FieldDescriptor, way Direction) error {
	if !Loosened.Breaks(way) {
		return nil
	}
	bm := bf.ContainingMessage()
	refused, err := d.base.absentViolations(bm, bf)
	if err != nil {
		return err
	}
	a := at{element: h.FullName(), head: h, base: bf, direction: way}
	for _, v := range refused {
		d.reportText(a, v.name, v.path, Loosened, v.path, "no field",
			fmt.Sprintf("%s: field %s (%d) was deleted with its rule %s, which refused its absence, on a message %s; breaks %s.",
				h.FullName(), bf.Name(), bf.Number(), v.path, way, who(Loosened)))
	}
	return nil
}

// predefinedCEL is a predefined rule's CEL, as one text for comparison.
func predefinedCEL(x protoreflect.ExtensionDescriptor) string {
	r, err := protovalidate.ResolvePredefinedRules(x)
	if err != nil || r == nil {
		return ""
	}
	var parts []string
	for _, c := range r.GetCel() {
		parts = append(parts, c.GetId()+": "+c.GetExpression())
	}
	return strings.Join(parts, "; ")
}

// Package rulediff compares the buf.validate rules of two schemas and reports each change that
// breaks a caller, by the direction the message travels: on a message clients send, a rule
// added or tightened refuses requests that passed before; on a message servers send, a rule
// removed or loosened lets through answers that a client which validates them refuses; a change
// that cannot be ordered (an edited CEL expression, a new pattern) breaks both.
//
// Rules that arrive with a new field, a new oneof or a deleted field are judged by the value an
// old peer sends or reads there — the field's absence — evaluated by protovalidate itself: a new
// field whose rules refuse its absent value (required, min_len ≥ 1, gt 0, a CEL rule) breaks old
// clients; one whose absent value passes (max_len, lte, anything under IGNORE_IF_ZERO_VALUE)
// breaks nobody.
//
// Numeric, length, count and membership rules are compared as the sets of values they accept,
// exactly (64-bit bounds as big integers): a field moved from int32 to int64 with the same
// bounds has no finding, and gt 0 is gte 1.
package rulediff

import (
	"fmt"
	"sort"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// File is one file of a schema. Import files are not compared (buf's --path and a module's
// dependencies make them imports), but their messages and RPCs still say who sends what.
type File struct {
	Descriptor protoreflect.FileDescriptor
	Import     bool
}

// Diff returns every breaking rule change from base to head, sorted by file, element and rule.
// An error means a rule could not be read (it never means "no findings").
func Diff(base, head []File) ([]Finding, error) {
	d := &differ{base: newSchema(base), head: newSchema(head)}
	d.way = directions(d.base, d.head)
	for _, f := range head {
		if f.Import {
			continue
		}
		if err := d.file(f.Descriptor); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(d.findings, func(i, j int) bool {
		a, b := d.findings[i], d.findings[j]
		if fa, fb := fileOf(a), fileOf(b); fa != fb {
			return fa < fb
		}
		if a.Element != b.Element {
			return a.Element < b.Element
		}
		return a.Rule < b.Rule
	})
	return d.findings, nil
}

func fileOf(f Finding) string {
	if f.Descriptor != nil {
		return f.Descriptor.ParentFile().Path()
	}
	return f.Against.ParentFile().Path()
}

type differ struct {
	base, head *schema
	way        map[protoreflect.FullName]Direction
	findings   []Finding
}

func (d *differ) file(f protoreflect.FileDescriptor) error {
	return walkMessages(f.Messages(), func(h protoreflect.MessageDescriptor) error {
		if h.IsMapEntry() {
			return nil // a map's keys and values are compared as the map field's rules
		}
		b := d.base.messages[h.FullName()]
		if b == nil {
			return nil // a new message: nobody sends it yet, its rules break nobody
		}
		return d.message(b, h)
	})
}

func walkMessages(list protoreflect.MessageDescriptors, fn func(protoreflect.MessageDescriptor) error) error {
	for i := 0; i < list.Len(); i++ {
		m := list.Get(i)
		if err := fn(m); err != nil {
			return err
		}
		if err := walkMessages(m.Messages(), fn); err != nil {
			return err
		}
	}
	return nil
}

// at is where a finding is: the element in the head (and the base), the rule's path and who
// sends the message.
type at struct {
	element   protoreflect.FullName
	head      protoreflect.Descriptor
	base      protoreflect.Descriptor
	direction Direction
	path      string // prefix of the rule path, e.g. "repeated.items."
}

func (a at) under(prefix string) at {
	a.path += prefix
	return a
}

// report records a change of the rule name (a path under a.path) if it breaks in a's direction.
func (d *differ) report(a at, name, rule string, c Change, from, to string) {
	if c == 0 || !c.Breaks(a.direction) {
		return
	}
	path := a.path + rule
	d.findings = append(d.findings, Finding{
		Rule: ruleID(name, c), Change: c, Direction: a.direction, Element: a.element,
		Descriptor: a.head, Against: a.base, Path: path, From: from, To: to,
		Message: describe(a.element, path, c, from, to, a.direction),
	})
}

// reportText records a finding whose sentence is not the usual one.
func (d *differ) reportText(a at, name, rule string, c Change, from, to, message string) {
	if c == 0 || !c.Breaks(a.direction) {
		return
	}
	d.findings = append(d.findings, Finding{
		Rule: ruleID(name, c), Change: c, Direction: a.direction, Element: a.element,
		Descriptor: a.head, Against: a.base, Path: a.path + rule, From: from, To: to, Message: message,
	})
}

func (d *differ) message(b, h protoreflect.MessageDescriptor) error {
	way := directionOf(d.way, h.FullName())
	here := at{element: h.FullName(), head: h, base: b, direction: way}
	if err := d.messageRules(b, h, here); err != nil {
		return err
	}
	oneofs := h.Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		ho := oneofs.Get(i)
		if ho.IsSynthetic() {
			continue
		}
		if err := d.oneof(b.Oneofs().ByName(ho.Name()), ho, way); err != nil {
			return err
		}
	}
	fields := h.Fields()
	for i := 0; i < fields.Len(); i++ {
		hf := fields.Get(i)
		bf := b.Fields().ByNumber(hf.Number())
		var err error
		if bf == nil {
			err = d.newField(h, hf, way)
		} else {
			err = d.field(bf, hf, way)
		}
		if err != nil {
			return err
		}
	}
	gone := b.Fields()
	for i := 0; i < gone.Len(); i++ {
		if bf := gone.Get(i); h.Fields().ByNumber(bf.Number()) == nil {
			if err := d.deletedField(h, bf, way); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *differ) field(bf, hf protoreflect.FieldDescriptor, way Direction) error {
	rb, err := protovalidate.ResolveFieldRules(bf)
	if err != nil {
		return fmt.Errorf("read the rules of %s in the base: %w", bf.FullName(), err)
	}
	rh, err := protovalidate.ResolveFieldRules(hf)
	if err != nil {
		return fmt.Errorf("read the rules of %s: %w", hf.FullName(), err)
	}
	a := at{element: hf.FullName(), head: hf, base: bf, direction: way}
	return d.fieldRules(rb, rh, valueOf(bf), valueOf(hf), a)
}

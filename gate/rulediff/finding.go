package rulediff

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Change is how a rule changed between the base and the head schema.
type Change int

const (
	// Tightened: the head refuses values the base accepted (a rule added, a bound raised).
	Tightened Change = iota + 1
	// Loosened: the head accepts values the base refused (a rule removed, a bound relaxed).
	Loosened
	// Changed: neither; the two accept different values (a new pattern, an edited CEL
	// expression, bounds moved both ways). It breaks whoever sends and whoever validates.
	Changed
)

func (c Change) String() string {
	switch c {
	case Tightened:
		return "tightened"
	case Loosened:
		return "loosened"
	case Changed:
		return "changed"
	}
	return "unknown"
}

// Direction says who sends a message: clients (an RPC's request, or a message inside one),
// servers (a response), or both. A message no RPC carries is taken to travel both ways: it may
// be a Kafka payload or a stored record, whose writers and readers are unknown.
type Direction int

const (
	// Request: only clients send it.
	Request Direction = 1 << iota
	// Response: only servers send it.
	Response
	// Both: clients and servers send it.
	Both = Request | Response
)

func (d Direction) String() string {
	switch d {
	case Request:
		return "sent by clients"
	case Response:
		return "sent by servers"
	}
	return "sent both ways"
}

// Breaks says whether a change breaks someone on a message sent this way: a tightened rule
// refuses what clients sent before; a loosened one lets through answers that a client which
// validates them refuses; a change that cannot be ordered does both.
func (c Change) Breaks(d Direction) bool {
	switch c {
	case Tightened:
		return d&Request != 0
	case Loosened:
		return d&Response != 0
	}
	return true
}

// Finding is one breaking rule change.
type Finding struct {
	// Rule is the rule id, VALIDATE_<RULE>_<CHANGE>, e.g. VALIDATE_MAX_LEN_TIGHTENED.
	Rule string
	// Change and Direction are why it breaks.
	Change    Change
	Direction Direction
	// Element is the fully-qualified name of the field, oneof or message that carries the rule
	// (for a field deleted with its rules: the message it was deleted from).
	Element protoreflect.FullName
	// Descriptor is the element in the head schema; Against the one in the base (nil when the
	// element is new, or gone).
	Descriptor protoreflect.Descriptor
	Against    protoreflect.Descriptor
	// Path is the rule inside buf.validate, e.g. "string.max_len" or "repeated.items.enum.in".
	Path string
	// From and To are the rule's values on each side ("unset" when absent).
	From, To string
	// Message says all of it in one sentence.
	Message string
}

func (f Finding) String() string { return f.Rule + " " + f.Message }

// ruleID is the id of a change of one rule: VALIDATE_<NAME>_<CHANGE>.
func ruleID(name string, c Change) string {
	return "VALIDATE_" + strings.ToUpper(name) + "_" + strings.ToUpper(c.String())
}

// who names whom a change breaks.
func who(c Change) string {
	switch c {
	case Tightened:
		return "clients whose requests passed before"
	case Loosened:
		return "clients that validate answers"
	}
	return "either side"
}

func describe(element protoreflect.FullName, path string, c Change, from, to string, d Direction) string {
	return fmt.Sprintf("%s: %s %s (%s → %s) on a message %s; breaks %s.", element, path, c, from, to, d, who(c))
}

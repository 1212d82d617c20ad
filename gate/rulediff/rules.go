package rulediff

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// rmsg reads a buf.validate rules message by field name, whichever concrete type it is (all
// numeric rule types share their field names); a nil message has no rule set.
type rmsg struct{ m protoreflect.Message }

func rulesOf(m proto.Message) rmsg {
	if m == nil || !m.ProtoReflect().IsValid() {
		return rmsg{}
	}
	return rmsg{m.ProtoReflect()}
}

func (r rmsg) valid() bool { return r.m != nil && r.m.IsValid() }

func (r rmsg) fd(name string) protoreflect.FieldDescriptor {
	if !r.valid() {
		return nil
	}
	return r.m.Descriptor().Fields().ByName(protoreflect.Name(name))
}

func (r rmsg) has(name string) bool {
	fd := r.fd(name)
	return fd != nil && r.m.Has(fd)
}

func (r rmsg) get(name string) protoreflect.Value { return r.m.Get(r.fd(name)) }

func (r rmsg) flag(name string) bool { return r.has(name) && r.get(name).Bool() }

func (r rmsg) str(name string) *string {
	if !r.has(name) {
		return nil
	}
	s := r.get(name).String()
	return &s
}

func (r rmsg) bytes(name string) *string {
	if !r.has(name) {
		return nil
	}
	s := string(r.get(name).Bytes())
	return &s
}

func (r rmsg) msg(name string) rmsg {
	if !r.has(name) {
		return rmsg{}
	}
	return rmsg{r.get(name).Message()}
}

// list of a repeated field's values as strings (nil when empty: no rule).
func (r rmsg) strings(name string, bytes bool) []string {
	if !r.has(name) {
		return nil
	}
	l := r.get(name).List()
	out := make([]string, l.Len())
	for i := range out {
		if bytes {
			out[i] = string(l.Get(i).Bytes())
		} else {
			out[i] = l.Get(i).String()
		}
	}
	return out
}

// text renders a rule's value as the finding shows it ("unset" when absent).
func (r rmsg) text(name string) string {
	if !r.has(name) {
		return "unset"
	}
	return show(r.fd(name), r.get(name))
}

func show(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	if fd.IsList() {
		l := v.List()
		parts := make([]string, l.Len())
		for i := range parts {
			parts[i] = showOne(fd, l.Get(i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return showOne(fd, v)
}

func showOne(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return strconv.Quote(v.String())
	case protoreflect.BytesKind:
		return fmt.Sprintf("%q", v.Bytes())
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return string(ev.Name())
		}
		return strconv.Itoa(int(v.Enum()))
	case protoreflect.MessageKind:
		m := rmsg{v.Message()}
		switch v.Message().Descriptor().FullName() {
		case "google.protobuf.Duration":
			return (time.Duration(nanos(m).Int64())).String()
		case "google.protobuf.Timestamp":
			return time.Unix(m.get("seconds").Int(), m.get("nanos").Int()).UTC().Format(time.RFC3339Nano)
		case "google.protobuf.FieldMask":
			return "[" + strings.Join(m.strings("paths", false), ", ") + "]"
		}
		return string(v.Message().Descriptor().Name())
	}
	return v.String()
}

// nanos is a Duration or Timestamp as a number of nanoseconds, exactly.
func nanos(m rmsg) *big.Int {
	if !m.valid() {
		return nil
	}
	seconds := big.NewInt(m.get("seconds").Int())
	return seconds.Mul(seconds, big.NewInt(1e9)).Add(seconds, big.NewInt(m.get("nanos").Int()))
}

// integer reads an integer-valued rule (any signedness) exactly.
func integer(fd protoreflect.FieldDescriptor, v protoreflect.Value) *big.Int {
	switch fd.Kind() {
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return new(big.Int).SetUint64(v.Uint())
	case protoreflect.EnumKind:
		return big.NewInt(int64(v.Enum()))
	case protoreflect.MessageKind:
		return nanos(rmsg{v.Message()})
	}
	return big.NewInt(v.Int())
}

func (r rmsg) integer(name string) *big.Int {
	if !r.has(name) {
		return nil
	}
	return integer(r.fd(name), r.get(name))
}

func (r rmsg) integers(name string) []*big.Int {
	if !r.has(name) {
		return nil
	}
	fd, l := r.fd(name), r.get(name).List()
	out := make([]*big.Int, l.Len())
	for i := range out {
		out[i] = integer(fd, l.Get(i))
	}
	return out
}

func (r rmsg) float(name string) *float64 {
	if !r.has(name) {
		return nil
	}
	f := r.get(name).Float()
	return &f
}

func (r rmsg) floats(name string) []float64 {
	if !r.has(name) {
		return nil
	}
	l := r.get(name).List()
	out := make([]float64, l.Len())
	for i := range out {
		out[i] = l.Get(i).Float()
	}
	return out
}

// unknown is a rules message's fields this build does not know (a newer validate.proto, or a
// predefined rule: an extension of the rule type), raw by number.
func (r rmsg) unknown() map[protoreflect.FieldNumber][]byte {
	out := map[protoreflect.FieldNumber][]byte{}
	if !r.valid() {
		return out
	}
	raw := r.m.GetUnknown()
	for len(raw) > 0 {
		num, typ, n := protowire.ConsumeTag(raw)
		if n < 0 {
			break
		}
		m := protowire.ConsumeFieldValue(num, typ, raw[n:])
		if m < 0 {
			break
		}
		out[num] = append(out[num], raw[:n+m]...)
		raw = raw[n+m:]
	}
	return out
}

package rulediff

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// ignoreStrictness orders buf.validate.Ignore: IGNORE_ALWAYS turns the rules off,
// IGNORE_IF_ZERO_VALUE skips a zero value, IGNORE_UNSPECIFIED applies them.
var ignoreStrictness = map[validate.Ignore]int{
	validate.Ignore_IGNORE_ALWAYS:        0,
	validate.Ignore_IGNORE_IF_ZERO_VALUE: 1,
	validate.Ignore_IGNORE_UNSPECIFIED:   2,
}

// family groups the rule types whose values compare with one another: a field moved between
// int32 and int64 (or uint32 and uint64, float and double) keeps its rules' meaning.
func family(typ string) string {
	switch typ {
	case "int32", "int64", "sint32", "sint64", "sfixed32", "sfixed64":
		return "int"
	case "uint32", "uint64", "fixed32", "fixed64":
		return "uint"
	case "float", "double":
		return "float"
	}
	return typ
}

// fieldRules compares the rules of one field (or of its items, keys or values).
func (d *differ) fieldRules(bp, hp *validate.FieldRules, bv, hv value, a at) error {
	b, h := rulesOf(bp), rulesOf(hp)
	if !b.valid() && !h.valid() {
		return nil
	}
	ib, ih := bp.GetIgnore(), hp.GetIgnore()
	if ib == validate.Ignore_IGNORE_ALWAYS && ih == validate.Ignore_IGNORE_ALWAYS {
		return nil // no rule applies on either side
	}
	if ib != ih && (hasRules(b) || hasRules(h)) {
		c := order(ignoreStrictness[ib], ignoreStrictness[ih])
		d.report(a, "ignore", "ignore", c, b.text("ignore"), h.text("ignore"))
		if ib == validate.Ignore_IGNORE_ALWAYS || ih == validate.Ignore_IGNORE_ALWAYS {
			return nil // one side applies no rule at all: that is the whole change
		}
	}
	d.flag(a, "required", b, h)
	d.cel(a, b, h)
	if err := d.typeRules(b, h, bv, hv, a); err != nil {
		return err
	}
	d.unknownRules(a, "buf.validate.FieldRules", b, h)
	return nil
}

// hasRules says whether a FieldRules sets anything besides ignore.
func hasRules(r rmsg) bool {
	if !r.valid() {
		return false
	}
	found := false
	r.m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		found = fd.Name() != "ignore"
		return !found
	})
	return found || len(r.m.GetUnknown()) > 0
}

// order: a larger strictness is tighter.
func order(before, after int) Change {
	switch {
	case after > before:
		return Tightened
	case after < before:
		return Loosened
	}
	return 0
}

// setChange orders two value sets from whether each holds the other.
func setChange(headInBase, baseInHead bool) Change {
	switch {
	case headInBase && baseInHead:
		return 0
	case headInBase:
		return Tightened
	case baseInHead:
		return Loosened
	}
	return Changed
}

// flag compares a boolean rule (true is stricter; false is the same as unset).
func (d *differ) flag(a at, name string, b, h rmsg) {
	vb, vh := b.flag(name), h.flag(name)
	if vb == vh {
		return
	}
	c := Tightened
	if vb {
		c = Loosened
	}
	d.report(a, name, name, c, fmt.Sprint(vb), fmt.Sprint(vh))
}

// exact compares a rule that has no order: added is tighter, removed looser, else changed.
func (d *differ) exact(a at, name string, b, h rmsg) {
	sb, sh := b.has(name), h.has(name)
	tb, th := b.text(name), h.text(name)
	switch {
	case !sb && !sh, tb == th:
		return
	case !sb:
		d.report(a, name, name, Tightened, tb, th)
	case !sh:
		d.report(a, name, name, Loosened, tb, th)
	default:
		d.report(a, name, name, Changed, tb, th)
	}
}

// group compares rules that together describe one set of values, given how the sets relate. A
// change is named after the one rule that differs, or the group when several do (or none does:
// the enum that defined_only reads gained or lost values).
func (d *differ) group(a at, groupName, fallback string, names []string, b, h rmsg, sb, sh setOf) {
	c := setChange(sh.subsetOf(sb), sb.subsetOf(sh))
	if c == 0 {
		return
	}
	var differ []string
	for _, n := range names {
		if b.text(n) != h.text(n) {
			differ = append(differ, n)
		}
	}
	switch len(differ) {
	case 0: // the rules read the same; what they refer to changed
		d.report(a, fallback, fallback, c, "accepts "+sb.String(), "accepts "+sh.String())
	case 1:
		d.report(a, differ[0], differ[0], c, b.text(differ[0]), h.text(differ[0]))
	default:
		d.report(a, groupName, "{"+strings.Join(differ, ", ")+"}", c, summary(b, names), summary(h, names))
	}
}

// setOf is a set of values some rules accept (zset, fset, mset).
type setOf interface {
	String() string
	subsetOf(setOf) bool
}

func (s zset) subsetOf(t setOf) bool { return s.within(t.(zset)) }
func (s fset) subsetOf(t setOf) bool { return s.within(t.(fset)) }
func (s mset) subsetOf(t setOf) bool { return s.within(t.(mset)) }

func summary(r rmsg, names []string) string {
	var parts []string
	for _, n := range names {
		if r.has(n) {
			parts = append(parts, n+": "+r.text(n))
		}
	}
	if len(parts) == 0 {
		return "unset"
	}
	return strings.Join(parts, ", ")
}

// typeRules compares the typed rules (string, int32, repeated, …) of a field.
func (d *differ) typeRules(b, h rmsg, bv, hv value, a at) error {
	bt, tb := typed(b)
	ht, th := typed(h)
	if bt == "" && ht == "" {
		return nil
	}
	name := ht
	if name == "" {
		name = bt
	}
	if bt != "" && ht != "" && family(bt) != family(ht) {
		d.report(a, "rule_type", "rules", Changed, bt+" rules", ht+" rules")
		return nil
	}
	a = a.under(name + ".")
	switch family(name) {
	case "int", "uint":
		d.integers(a, tb, th, bv, hv)
	case "float":
		d.floats(a, tb, th)
	case "bool":
		d.exact(a, "const", tb, th)
	case "string":
		d.strings(a, tb, th)
	case "bytes":
		d.bytes(a, tb, th)
	case "enum":
		d.enums(a, tb, th, bv, hv)
	case "repeated":
		d.counts(a, "items", "min_items", "max_items", tb, th)
		d.flag(a, "unique", tb, th)
		item := func(r rmsg) *validate.FieldRules {
			if !r.has("items") {
				return nil
			}
			return r.get("items").Message().Interface().(*validate.FieldRules)
		}
		if err := d.fieldRules(item(tb), item(th), bv, hv, a.under("items.")); err != nil {
			return err
		}
	case "map":
		d.counts(a, "pairs", "min_pairs", "max_pairs", tb, th)
		nested := func(r rmsg, name string) *validate.FieldRules {
			if !r.has(name) {
				return nil
			}
			return r.get(name).Message().Interface().(*validate.FieldRules)
		}
		if err := d.fieldRules(nested(tb, "keys"), nested(th, "keys"), bv.mapKey(), hv.mapKey(), a.under("keys.")); err != nil {
			return err
		}
		if err := d.fieldRules(nested(tb, "values"), nested(th, "values"), bv.mapValue(), hv.mapValue(), a.under("values.")); err != nil {
			return err
		}
	case "any":
		d.members(a, tb, th, false)
	case "duration":
		d.integers(a, tb, th, value{}, value{})
	case "timestamp":
		d.integers(a, tb, th, value{}, value{})
		d.flag(a, "lt_now", tb, th)
		d.flag(a, "gt_now", tb, th)
		d.within(a, tb, th)
	case "field_mask":
		d.exact(a, "const", tb, th)
		d.members(a, tb, th, false)
	}
	d.unknownRules(a, "", tb, th)
	return nil
}

// typed is the field rules' type case ("string", "int64", …) and its rules.
func typed(r rmsg) (string, rmsg) {
	if !r.valid() {
		return "", rmsg{}
	}
	oneof := r.m.Descriptor().Oneofs().ByName("type")
	fd := r.m.WhichOneof(oneof)
	if fd == nil {
		return "", rmsg{}
	}
	return string(fd.Name()), rmsg{r.m.Get(fd).Message()}
}

// domains of the integer field types: the rules of both sides are compared over the wider of
// the two, so the bounds a type implies by itself never count as a change.
var (
	min32, max32   = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	min64, max64   = big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	maxU32, maxU64 = new(big.Int).SetUint64(math.MaxUint32), new(big.Int).SetUint64(math.MaxUint64)
)

func domainOf(k protoreflect.Kind) zset {
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.EnumKind:
		return zrange(min32, max32)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return zrange(min64, max64)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return zrange(big.NewInt(0), maxU32)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return zrange(big.NewInt(0), maxU64)
	}
	return zall() // durations and timestamps: their nanoseconds
}

var rangeRules = []string{"const", "gt", "gte", "lt", "lte", "in", "not_in"}

func zboundsOf(r rmsg) zbounds {
	return zbounds{gt: r.integer("gt"), gte: r.integer("gte"), lt: r.integer("lt"), lte: r.integer("lte"),
		konst: r.integer("const"), in: r.integers("in"), notIn: r.integers("not_in")}
}

func (d *differ) integers(a at, b, h rmsg, bv, hv value) {
	domain := domainOf(bv.kind).union(domainOf(hv.kind))
	sb, sh := zboundsOf(b).set(domain), zboundsOf(h).set(domain)
	d.group(a, "range", "range", rangeRules, b, h, sb, sh)
}

func fboundsOf(r rmsg) fbounds {
	return fbounds{gt: r.float("gt"), gte: r.float("gte"), lt: r.float("lt"), lte: r.float("lte"),
		konst: r.float("const"), in: r.floats("in"), notIn: r.floats("not_in"), finite: r.flag("finite")}
}

func (d *differ) floats(a at, b, h rmsg) {
	sb, sh := fboundsOf(b).set(), fboundsOf(h).set()
	d.group(a, "range", "range", append(append([]string{}, rangeRules...), "finite"), b, h, sb, sh)
}

// lengths is the set of lengths (or counts) min, max and an exact value allow.
func lengths(r rmsg, exact, min, max string) zset {
	s := zrange(big.NewInt(0), nil)
	if v := r.integer(min); v != nil {
		s = s.intersect(zrange(v, nil))
	}
	if v := r.integer(max); v != nil {
		s = s.intersect(zrange(nil, v))
	}
	if exact != "" {
		if v := r.integer(exact); v != nil {
			s = s.intersect(zpoint(v))
		}
	}
	return s
}

func (d *differ) counts(a at, groupName, min, max string, b, h rmsg) {
	sb, sh := lengths(b, "", min, max), lengths(h, "", min, max)
	d.group(a, groupName, groupName, []string{min, max}, b, h, sb, sh)
}

func (d *differ) lengthRules(a at, groupName, exact, min, max string, b, h rmsg) {
	sb, sh := lengths(b, exact, min, max), lengths(h, exact, min, max)
	d.group(a, groupName, groupName, []string{exact, min, max}, b, h, sb, sh)
}

func (d *differ) members(a at, b, h rmsg, bytes bool) {
	mb := mbounds{in: b.strings("in", bytes), notIn: b.strings("not_in", bytes)}
	mh := mbounds{in: h.strings("in", bytes), notIn: h.strings("not_in", bytes)}
	names := []string{"in", "not_in"}
	if b.fd("const") != nil && b.fd("const").Kind() != protoreflect.MessageKind || h.fd("const") != nil && h.fd("const").Kind() != protoreflect.MessageKind {
		if bytes {
			mb.konst, mh.konst = b.bytes("const"), h.bytes("const")
		} else {
			mb.konst, mh.konst = b.str("const"), h.str("const")
		}
		names = append([]string{"const"}, names...)
	}
	sb, sh := mb.set(), mh.set()
	d.group(a, "in", "in", names, b, h, sb, sh)
}

// Formats a string may be required to have (the well_known oneof), and those of bytes.
var stringFormats = []string{"email", "hostname", "ip", "ipv4", "ipv6", "uri", "uri_ref", "address", "uuid", "tuuid",
	"ip_with_prefixlen", "ipv4_with_prefixlen", "ipv6_with_prefixlen", "ip_prefix", "ipv4_prefix", "ipv6_prefix",
	"host_and_port", "ulid", "protobuf_fqn", "protobuf_dot_fqn"}
var bytesFormats = []string{"ip", "ipv4", "ipv6", "uuid"}

func (d *differ) strings(a at, b, h rmsg) {
	d.lengthRules(a, "len", "len", "min_len", "max_len", b, h)
	d.lengthRules(a, "len_bytes", "len_bytes", "min_bytes", "max_bytes", b, h)
	d.members(a, b, h, false)
	d.text(a, b, h, false)
	d.exact(a, "pattern", b, h)
	for _, f := range stringFormats {
		d.flag(a, f, b, h)
	}
	d.exact(a, "well_known_regex", b, h)
	if b.has("well_known_regex") && h.has("well_known_regex") {
		// strict (true unless set) only means something beside a well-known regex.
		strict := func(r rmsg) bool { return !r.has("strict") || r.get("strict").Bool() }
		if sb, sh := strict(b), strict(h); sb != sh {
			c := Tightened
			if sb {
				c = Loosened
			}
			d.report(a, "strict", "strict", c, fmt.Sprint(sb), fmt.Sprint(sh))
		}
	}
}

func (d *differ) bytes(a at, b, h rmsg) {
	d.lengthRules(a, "len", "len", "min_len", "max_len", b, h)
	d.members(a, b, h, true)
	d.text(a, b, h, true)
	d.exact(a, "pattern", b, h)
	for _, f := range bytesFormats {
		d.flag(a, f, b, h)
	}
}

// text compares prefix, suffix, contains and not_contains, which do have an order: "ab" as a
// prefix is tighter than "a".
func (d *differ) text(a at, b, h rmsg, isBytes bool) {
	get := func(r rmsg, name string) *string {
		if isBytes {
			return r.bytes(name)
		}
		return r.str(name)
	}
	for _, name := range []string{"prefix", "suffix", "contains", "not_contains"} {
		vb, vh := get(b, name), get(h, name)
		var c Change
		switch {
		case vb == nil && vh == nil:
			continue
		case vb == nil:
			c = Tightened
		case vh == nil:
			c = Loosened
		case *vb == *vh:
			continue
		default:
			c = orderText(name, []byte(*vb), []byte(*vh))
		}
		d.report(a, name, name, c, b.text(name), h.text(name))
	}
}

func orderText(name string, vb, vh []byte) Change {
	var tighter, looser bool
	switch name {
	case "prefix":
		tighter, looser = bytes.HasPrefix(vh, vb), bytes.HasPrefix(vb, vh)
	case "suffix":
		tighter, looser = bytes.HasSuffix(vh, vb), bytes.HasSuffix(vb, vh)
	case "contains":
		tighter, looser = bytes.Contains(vh, vb), bytes.Contains(vb, vh)
	case "not_contains": // refusing what contains a shorter text refuses more
		tighter, looser = bytes.Contains(vb, vh), bytes.Contains(vh, vb)
	}
	switch {
	case tighter:
		return Tightened
	case looser:
		return Loosened
	}
	return Changed
}

// enums compares const, in, not_in and defined_only as one set of numbers; defined_only reads
// each side's own enum, so a value added to or removed from the enum changes what it allows.
func (d *differ) enums(a at, b, h rmsg, bv, hv value) {
	set := func(r rmsg, v value) zset {
		s := zboundsOf(r).set(domainOf(protoreflect.EnumKind))
		if r.flag("defined_only") && v.enum != nil {
			var defined []*big.Int
			values := v.enum.Values()
			for i := 0; i < values.Len(); i++ {
				defined = append(defined, big.NewInt(int64(values.Get(i).Number())))
			}
			s = s.intersect(zpoints(defined))
		}
		return s
	}
	sb, sh := set(b, bv), set(h, hv)
	d.group(a, "in", "defined_only", []string{"const", "defined_only", "in", "not_in"}, b, h, sb, sh)
}

// within: a timestamp within a larger window of now is looser.
func (d *differ) within(a at, b, h rmsg) {
	nb, nh := nanos(b.msg("within")), nanos(h.msg("within"))
	var c Change
	switch {
	case nb == nil && nh == nil:
		return
	case nb == nil:
		c = Tightened
	case nh == nil:
		c = Loosened
	default:
		switch nh.Cmp(nb) {
		case 0:
			return
		case -1:
			c = Tightened
		default:
			c = Loosened
		}
	}
	d.report(a, "within", "within", c, b.text("within"), h.text("within"))
}

// cel compares CEL rules by id (cel) and by expression (cel_expression): one added is tighter,
// one removed looser, and an edited expression cannot be ordered.
func (d *differ) cel(a at, b, h rmsg) {
	type rule struct{ key, expression string }
	read := func(r rmsg) map[string]rule {
		out := map[string]rule{}
		if !r.valid() {
			return out
		}
		if r.has("cel") {
			l := r.get("cel").List()
			for i := 0; i < l.Len(); i++ {
				m := rmsg{l.Get(i).Message()}
				id, expression := m.get("id").String(), m.get("expression").String()
				key := "id " + id
				if id == "" {
					key = "expression " + expression
				}
				out[key] = rule{key, expression}
			}
		}
		for _, e := range r.strings("cel_expression", false) {
			out["expression "+e] = rule{"expression " + e, e}
		}
		return out
	}
	rb, rh := read(b), read(h)
	keys := map[string]bool{}
	for k := range rb {
		keys[k] = true
	}
	for k := range rh {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		x, inB := rb[k]
		y, inH := rh[k]
		path := "cel[" + strings.TrimPrefix(strings.TrimPrefix(k, "id "), "expression ") + "]"
		switch {
		case !inB:
			d.report(a, "cel", path, Tightened, "unset", quote(y.expression))
		case !inH:
			d.report(a, "cel", path, Loosened, quote(x.expression), "unset")
		case x.expression != y.expression:
			d.reportText(a, "cel", path, Changed, quote(x.expression), quote(y.expression),
				fmt.Sprintf("%s: CEL rule %s changed (%s → %s) on a message %s; an edited expression cannot be ordered, so it breaks either side.",
					a.element, strings.TrimPrefix(k, "id "), quote(x.expression), quote(y.expression), a.direction))
		}
	}
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// unknownRules compares the fields of a rules message this build does not know: a predefined
// rule (an extension of the rule type, with its own CEL), or a rule of a newer validate.proto.
// A predefined rule added is tighter and removed looser; anything else that differs cannot be
// ordered — and a predefined rule whose CEL changed between the schemas changed every use.
func (d *differ) unknownRules(a at, extendee protoreflect.FullName, b, h rmsg) {
	if extendee == "" {
		switch {
		case h.valid():
			extendee = h.m.Descriptor().FullName()
		case b.valid():
			extendee = b.m.Descriptor().FullName()
		default:
			return
		}
	}
	ub, uh := b.unknown(), h.unknown()
	numbers := map[protoreflect.FieldNumber]bool{}
	for n := range ub {
		numbers[n] = true
	}
	for n := range uh {
		numbers[n] = true
	}
	sorted := make([]int, 0, len(numbers))
	for n := range numbers {
		sorted = append(sorted, int(n))
	}
	sort.Ints(sorted)
	for _, i := range sorted {
		n := protoreflect.FieldNumber(i)
		xb, xh := d.base.extensions[extendee][n], d.head.extensions[extendee][n]
		rawB, inB := ub[n]
		rawH, inH := uh[n]
		if xb == nil && xh == nil {
			if !bytes.Equal(rawB, rawH) {
				d.report(a, "unknown_rule", fmt.Sprintf("%s field %d", extendee.Name(), n), Changed, fmt.Sprintf("%x", rawB), fmt.Sprintf("%x", rawH))
			}
			continue
		}
		x := xh
		if x == nil {
			x = xb
		}
		path := "(" + string(x.FullName()) + ")"
		switch {
		case !inB:
			d.report(a, "predefined", path, Tightened, "unset", "set")
		case !inH:
			d.report(a, "predefined", path, Loosened, "set", "unset")
		case !bytes.Equal(rawB, rawH):
			d.report(a, "predefined", path, Changed, fmt.Sprintf("%x", rawB), fmt.Sprintf("%x", rawH))
		case xb != nil && xh != nil:
			if cb, ch := predefinedCEL(xb), predefinedCEL(xh); cb != ch {
				d.reportText(a, "predefined", path, Changed, cb, ch, fmt.Sprintf(
					"%s: the predefined rule %s is used as before, but its CEL changed (%s → %s) on a message %s; an edited expression cannot be ordered, so it breaks either side.",
					a.element, x.FullName(), cb, ch, a.direction))
			}
		}
	}
}

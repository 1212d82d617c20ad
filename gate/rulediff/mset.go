package rulediff

import (
	"sort"
	"strconv"
	"strings"
)

// mset is a set of values that have no order, only identity (strings, bytes, type URLs, field
// mask paths), as const, in and not_in describe it: everything but the denied values, or a
// finite list of allowed values.
type mset struct {
	finite bool            // only allow's members (minus deny); otherwise everything but deny
	allow  map[string]bool // the members when finite
	deny   map[string]bool
}

// mbounds: const, in and not_in (nil when the rule is not set).
type mbounds struct {
	konst *string
	in    []string
	notIn []string
}

func (b mbounds) set() mset {
	s := mset{deny: map[string]bool{}}
	if b.konst != nil {
		s.finite, s.allow = true, map[string]bool{*b.konst: true}
	}
	if b.in != nil {
		in := map[string]bool{}
		for _, v := range b.in {
			if !s.finite || s.allow[v] {
				in[v] = true
			}
		}
		s.finite, s.allow = true, in
	}
	for _, v := range b.notIn {
		s.deny[v] = true
	}
	if s.finite { // a finite set is its members: fold deny into it
		for v := range s.deny {
			delete(s.allow, v)
		}
		s.deny = map[string]bool{}
	}
	return s
}

func (s mset) within(t mset) bool {
	if s.finite {
		for v := range s.allow {
			if (t.finite && !t.allow[v]) || t.deny[v] {
				return false
			}
		}
		return true
	}
	if t.finite {
		return false // everything but a few values is never inside a finite list
	}
	for v := range t.deny {
		if !s.deny[v] {
			return false
		}
	}
	return true
}

func (s mset) String() string {
	list := func(m map[string]bool) string {
		var vs []string
		for v := range m {
			vs = append(vs, strconv.Quote(v))
		}
		sort.Strings(vs)
		return "[" + strings.Join(vs, ", ") + "]"
	}
	if s.finite {
		return "one of " + list(s.allow)
	}
	if len(s.deny) == 0 {
		return "any value"
	}
	return "any value but " + list(s.deny)
}

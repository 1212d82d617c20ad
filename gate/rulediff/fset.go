package rulediff

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// fset is a set of floating-point values: disjoint intervals of the extended real line
// [-Inf, +Inf] with open or closed ends, and whether NaN is in it. float bounds are widened to
// float64 exactly, so a float field and a double field compare value for value.
type fset struct {
	parts []finterval
	nan   bool
}

type finterval struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

func (a finterval) empty() bool {
	return a.lo > a.hi || (a.lo == a.hi && (a.loOpen || a.hiOpen))
}

func fall() fset { return fset{parts: []finterval{{lo: math.Inf(-1), hi: math.Inf(1)}}, nan: true} }

func fpoint(v float64) fset {
	if math.IsNaN(v) {
		return fset{nan: true}
	}
	return fset{parts: []finterval{{lo: v, hi: v}}}
}

func (s fset) intersect(t fset) fset {
	out := fset{nan: s.nan && t.nan}
	for _, a := range s.parts {
		for _, b := range t.parts {
			c := finterval{lo: a.lo, loOpen: a.loOpen, hi: a.hi, hiOpen: a.hiOpen}
			if b.lo > c.lo || (b.lo == c.lo && b.loOpen) {
				c.lo, c.loOpen = b.lo, b.loOpen
			}
			if b.hi < c.hi || (b.hi == c.hi && b.hiOpen) {
				c.hi, c.hiOpen = b.hi, b.hiOpen
			}
			if !c.empty() {
				out.parts = append(out.parts, c)
			}
		}
	}
	return out.normal()
}

func (s fset) union(t fset) fset {
	return fset{parts: append(append([]finterval{}, s.parts...), t.parts...), nan: s.nan || t.nan}.normal()
}

func (s fset) minus(v float64) fset {
	if math.IsNaN(v) {
		return fset{parts: s.parts, nan: false}
	}
	out := fset{nan: s.nan}
	for _, a := range s.parts {
		inside := (a.lo < v || (a.lo == v && !a.loOpen)) && (v < a.hi || (v == a.hi && !a.hiOpen))
		if !inside {
			out.parts = append(out.parts, a)
			continue
		}
		left := finterval{lo: a.lo, loOpen: a.loOpen, hi: v, hiOpen: true}
		right := finterval{lo: v, loOpen: true, hi: a.hi, hiOpen: a.hiOpen}
		for _, part := range []finterval{left, right} {
			if !part.empty() {
				out.parts = append(out.parts, part)
			}
		}
	}
	return out.normal()
}

func (s fset) normal() fset {
	parts := s.parts
	sort.Slice(parts, func(i, j int) bool {
		if parts[i].lo != parts[j].lo {
			return parts[i].lo < parts[j].lo
		}
		return !parts[i].loOpen && parts[j].loOpen
	})
	out := []finterval{}
	for _, a := range parts {
		if n := len(out); n > 0 {
			last := &out[n-1]
			// Overlapping, or touching where at least one side holds the point.
			if a.lo < last.hi || (a.lo == last.hi && !(a.loOpen && last.hiOpen)) {
				if a.hi > last.hi || (a.hi == last.hi && !a.hiOpen) {
					last.hi, last.hiOpen = a.hi, a.hiOpen
				}
				continue
			}
		}
		out = append(out, a)
	}
	return fset{parts: out, nan: s.nan}
}

func (s fset) within(t fset) bool {
	if s.nan && !t.nan {
		return false
	}
	for _, a := range s.parts {
		covered := false
		for _, b := range t.parts {
			loOK := b.lo < a.lo || (b.lo == a.lo && (!b.loOpen || a.loOpen))
			hiOK := a.hi < b.hi || (a.hi == b.hi && (!b.hiOpen || a.hiOpen))
			if loOK && hiOK {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return true
}

func (s fset) String() string {
	var parts []string
	for _, a := range s.parts {
		if a.lo == a.hi {
			parts = append(parts, ffmt(a.lo))
			continue
		}
		l, r := "[", "]"
		if a.loOpen {
			l = "("
		}
		if a.hiOpen {
			r = ")"
		}
		parts = append(parts, l+ffmt(a.lo)+", "+ffmt(a.hi)+r)
	}
	if s.nan {
		parts = append(parts, "NaN")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " ∪ ")
}

func ffmt(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// fbounds is what float and double rules say about a value. As in protovalidate, NaN fails
// every comparison (so any bound, const or in refuses it) and finite refuses NaN and ±Inf.
type fbounds struct {
	gt, gte, lt, lte, konst *float64
	in, notIn               []float64
	finite                  bool
}

func (b fbounds) set() fset {
	inf := math.Inf(1)
	var lower, upper *fset
	var lowV, upV float64
	var lowStrict, upStrict bool
	switch {
	case b.gt != nil:
		lower, lowV, lowStrict = &fset{parts: []finterval{{lo: *b.gt, loOpen: true, hi: inf}}}, *b.gt, true
	case b.gte != nil:
		lower, lowV = &fset{parts: []finterval{{lo: *b.gte, hi: inf}}}, *b.gte
	}
	switch {
	case b.lt != nil:
		upper, upV, upStrict = &fset{parts: []finterval{{lo: -inf, hi: *b.lt, hiOpen: true}}}, *b.lt, true
	case b.lte != nil:
		upper, upV = &fset{parts: []finterval{{lo: -inf, hi: *b.lte}}}, *b.lte
	}
	s := fall()
	if lower != nil || upper != nil || b.konst != nil || b.in != nil {
		s.nan = false
	}
	switch {
	case lower != nil && upper != nil:
		normal := upV > lowV || (upV == lowV && !lowStrict && !upStrict)
		if normal {
			s = s.intersect(*lower).intersect(*upper)
		} else {
			s = s.intersect(lower.union(*upper))
		}
	case lower != nil:
		s = s.intersect(*lower)
	case upper != nil:
		s = s.intersect(*upper)
	}
	if b.konst != nil {
		s = s.intersect(fpoint(*b.konst))
	}
	if b.in != nil {
		in := fset{}
		for _, v := range b.in {
			in = in.union(fpoint(v))
		}
		s = s.intersect(in)
	}
	for _, v := range b.notIn {
		s = s.minus(v)
	}
	if b.finite {
		s = s.intersect(fset{parts: []finterval{{lo: -inf, loOpen: true, hi: inf, hiOpen: true}}})
	}
	return s
}

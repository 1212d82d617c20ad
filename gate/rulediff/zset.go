package rulediff

import (
	"math/big"
	"sort"
	"strings"
)

// zset is a set of integers: sorted, disjoint, non-adjacent closed intervals. A nil bound is
// infinite. Bounds are big.Ints so that 64-bit rules (and a uint64 beside an int64) compare
// exactly: a float64 loses every integer above 2^53.
type zset []zinterval

type zinterval struct{ lo, hi *big.Int } // nil lo: -inf; nil hi: +inf

func zall() zset { return zset{{}} }

func zrange(lo, hi *big.Int) zset {
	if lo != nil && hi != nil && lo.Cmp(hi) > 0 {
		return zset{}
	}
	return zset{{lo, hi}}
}

func zpoint(v *big.Int) zset { return zset{{v, v}} }

func zpoints(vs []*big.Int) zset {
	out := zset{}
	for _, v := range vs {
		out = out.union(zpoint(v))
	}
	return out
}

func loLess(a, b *big.Int) bool { // a < b for lower bounds (nil = -inf)
	if a == nil {
		return b != nil
	}
	return b != nil && a.Cmp(b) < 0
}

func hiLess(a, b *big.Int) bool { // a < b for upper bounds (nil = +inf)
	if b == nil {
		return a != nil
	}
	return a != nil && a.Cmp(b) < 0
}

func maxLo(a, b *big.Int) *big.Int {
	if loLess(a, b) {
		return b
	}
	return a
}

func minHi(a, b *big.Int) *big.Int {
	if hiLess(a, b) {
		return a
	}
	return b
}

func (s zset) intersect(t zset) zset {
	out := zset{}
	for _, a := range s {
		for _, b := range t {
			lo, hi := maxLo(a.lo, b.lo), minHi(a.hi, b.hi)
			if lo == nil || hi == nil || lo.Cmp(hi) <= 0 {
				out = append(out, zinterval{lo, hi})
			}
		}
	}
	return out.normal()
}

func (s zset) union(t zset) zset {
	return append(append(zset{}, s...), t...).normal()
}

// minus removes one integer.
func (s zset) minus(v *big.Int) zset {
	out := zset{}
	one := big.NewInt(1)
	for _, a := range s {
		inLo := a.lo == nil || a.lo.Cmp(v) <= 0
		inHi := a.hi == nil || a.hi.Cmp(v) >= 0
		if !inLo || !inHi {
			out = append(out, a)
			continue
		}
		if a.lo == nil || a.lo.Cmp(v) < 0 {
			out = append(out, zinterval{a.lo, new(big.Int).Sub(v, one)})
		}
		if a.hi == nil || a.hi.Cmp(v) > 0 {
			out = append(out, zinterval{new(big.Int).Add(v, one), a.hi})
		}
	}
	return out.normal()
}

// normal sorts the intervals and merges the overlapping and adjacent ones.
func (s zset) normal() zset {
	sort.Slice(s, func(i, j int) bool { return loLess(s[i].lo, s[j].lo) })
	out := zset{}
	for _, a := range s {
		if n := len(out); n > 0 {
			last := &out[n-1]
			// Touching or overlapping: last.hi + 1 >= a.lo.
			if last.hi == nil || a.lo == nil || new(big.Int).Add(last.hi, big.NewInt(1)).Cmp(a.lo) >= 0 {
				if hiLess(last.hi, a.hi) {
					last.hi = a.hi
				}
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// within: every member of s is in t.
func (s zset) within(t zset) bool {
	for _, a := range s {
		covered := false
		for _, b := range t {
			if !loLess(a.lo, b.lo) && !hiLess(b.hi, a.hi) {
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

func (s zset) String() string {
	if len(s) == 0 {
		return "nothing"
	}
	parts := make([]string, len(s))
	for i, a := range s {
		lo, hi := "-∞", "+∞"
		if a.lo != nil {
			lo = a.lo.String()
		}
		if a.hi != nil {
			hi = a.hi.String()
		}
		if a.lo != nil && a.hi != nil && a.lo.Cmp(a.hi) == 0 {
			parts[i] = lo
		} else {
			parts[i] = "[" + lo + ", " + hi + "]"
		}
	}
	return strings.Join(parts, " ∪ ")
}

// zbounds is what numeric rules say about a value: bounds (gt/gte/lt/lte), const, in and
// not_in. Their meaning, protovalidate's: a lower bound above the upper one makes the range
// exclusive (the value must lie outside it), not empty.
type zbounds struct {
	gt, gte, lt, lte, konst *big.Int
	in, notIn               []*big.Int
}

func (b zbounds) set(domain zset) zset {
	one := big.NewInt(1)
	var lower, upper zset
	var lowV, upV *big.Int // the raw bound values, to tell a normal range from an exclusive one
	var lowStrict, upStrict bool
	switch {
	case b.gt != nil:
		lower, lowV, lowStrict = zrange(new(big.Int).Add(b.gt, one), nil), b.gt, true
	case b.gte != nil:
		lower, lowV = zrange(b.gte, nil), b.gte
	}
	switch {
	case b.lt != nil:
		upper, upV, upStrict = zrange(nil, new(big.Int).Sub(b.lt, one)), b.lt, true
	case b.lte != nil:
		upper, upV = zrange(nil, b.lte), b.lte
	}
	s := domain
	switch {
	case lower != nil && upper != nil:
		// Normal when the upper bound lies above the lower one (>= only when both are inclusive).
		c := upV.Cmp(lowV)
		normal := c > 0 || (c == 0 && !lowStrict && !upStrict)
		if normal {
			s = s.intersect(lower).intersect(upper)
		} else {
			s = s.intersect(lower.union(upper))
		}
	case lower != nil:
		s = s.intersect(lower)
	case upper != nil:
		s = s.intersect(upper)
	}
	if b.konst != nil {
		s = s.intersect(zpoint(b.konst))
	}
	if b.in != nil {
		s = s.intersect(zpoints(b.in))
	}
	for _, v := range b.notIn {
		s = s.minus(v)
	}
	return s
}

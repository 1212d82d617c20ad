package findings

import (
	"sort"
	"time"

	"github.com/acme/contracts/gate/exceptions"
	"github.com/acme/contracts/gate/releases"
)

// Side is the findings of the head against one side: the base, or a release.
type Side struct {
	Name     string // BaseSide or a release tag
	Findings []Finding
}

// Judge merges the findings of every side (one per rule and element, with every side it breaks)
// and judges each: accepted when an unexpired exception names its element and rule; otherwise
// refused for the base, and for every release unless a newer release accepted exactly this
// break; waived when every release it breaks had it accepted. It returns the findings and the
// exceptions used (by entry number).
func Judge(sides []Side, file *exceptions.File, history releases.History, today time.Time) ([]Finding, map[int]bool) {
	var out []Finding
	index := map[string]int{}
	for _, side := range sides {
		for _, f := range side.Findings {
			i, ok := index[f.Key()]
			if !ok {
				f.Breaks = nil
				i = len(out)
				index[f.Key()] = i
				out = append(out, f)
			}
			out[i].Breaks = append(out[i].Breaks, side.Name)
		}
	}
	used := map[int]bool{}
	for i := range out {
		f := &out[i]
		if e := file.Match(f.Element, f.Rule, today); e != nil {
			f.Verdict, f.Exception = Accepted, e
			used[e.N] = true
			continue
		}
		waiver := ""
		for _, s := range f.Breaks {
			by := ""
			if s != BaseSide {
				by = WaivedBy(history, s, *f)
			}
			if by == "" {
				f.RefusedFor = append(f.RefusedFor, s)
			} else if waiver == "" {
				waiver = by
			}
		}
		if len(f.RefusedFor) > 0 {
			f.Verdict = Refused
		} else {
			f.Verdict, f.WaivedBy = Waived, waiver
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Key() < b.Key()
	})
	return out, used
}

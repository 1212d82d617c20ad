// Command buf-plugin-protovalidate-breaking is a buf check plugin: the buf.validate rule
// changes that break a caller, reported by `buf breaking` beside buf's own rules, with file,
// line and column. Which change breaks depends on who sends the message (rulediff says how):
// a rule tightened on a request, loosened on a response, or changed in a way that cannot be
// ordered; and a new field whose rules refuse the absent value an old client sends.
//
// Add it to a buf.yaml:
//
//	breaking:
//	  use: [FILE, VALIDATE]
//	plugins:
//	  - plugin: buf-plugin-protovalidate-breaking
package main

import (
	"context"

	"buf.build/go/bufplugin/check"
	"buf.build/go/bufplugin/descriptor"
	"github.com/acme/contracts/gate/rulediff"
)

// category groups every rule of the plugin, for breaking.use.
const category = "VALIDATE"

func main() { check.Main(spec) }

var spec = newSpec()

func newSpec() *check.Spec {
	s := &check.Spec{
		Categories: []*check.CategorySpec{{
			ID:      category,
			Purpose: "Checks that buf.validate rules change only in ways that break no client or server, by the direction each message travels.",
		}},
		// The comparison runs once per request, before the rules read their findings from it.
		Before: diff,
	}
	for _, r := range rulediff.Rules() {
		s.Rules = append(s.Rules, &check.RuleSpec{
			ID: r.ID, CategoryIDs: []string{category}, Default: true, Purpose: r.Purpose,
			Type: check.RuleTypeBreaking, Handler: report(r.ID),
		})
	}
	return s
}

type findingsKey struct{}

// diff compares the request's files with the files it is checked against.
func diff(ctx context.Context, request check.Request) (context.Context, check.Request, error) {
	files := func(list []descriptor.FileDescriptor) []rulediff.File {
		out := make([]rulediff.File, len(list))
		for i, f := range list {
			out[i] = rulediff.File{Descriptor: f.ProtoreflectFileDescriptor(), Import: f.IsImport()}
		}
		return out
	}
	findings, err := rulediff.Diff(files(request.AgainstFileDescriptors()), files(request.FileDescriptors()))
	if err != nil {
		return nil, nil, err
	}
	return context.WithValue(ctx, findingsKey{}, findings), request, nil
}

// report writes the findings of one rule as annotations.
func report(id string) check.RuleHandler {
	return check.RuleHandlerFunc(func(ctx context.Context, w check.ResponseWriter, _ check.Request) error {
		findings, _ := ctx.Value(findingsKey{}).([]rulediff.Finding)
		for _, f := range findings {
			if f.Rule != id {
				continue
			}
			options := []check.AddAnnotationOption{check.WithMessage(f.Message)}
			if f.Descriptor != nil {
				options = append(options, check.WithDescriptor(f.Descriptor))
			}
			if f.Against != nil {
				options = append(options, check.WithAgainstDescriptor(f.Against))
			}
			w.AddAnnotation(options...)
		}
		return nil
	})
}

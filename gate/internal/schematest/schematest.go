// Package schematest compiles .proto sources written inline in a test into an image, as
// `buf build -o` would make one: the sources are the schema's own files; the well-known types
// and buf/validate/validate.proto (served from protovalidate's Go package, so nothing third-party
// is copied into the repository) are its imports. The image goes through its bytes, so tests
// read it exactly as the gate reads a real one.
package schematest

import (
	"context"
	"sort"
	"testing"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"github.com/acme/contracts/gate/image"
	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
)

// Compile compiles the sources (path → text) into an image; a compile error fails the test.
func Compile(t testing.TB, name string, sources map[string]string) *image.Image {
	t.Helper()
	im, err := CompileErr(name, sources)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	return im
}

// CompileErr is Compile returning the error.
func CompileErr(name string, sources map[string]string) (*image.Image, error) {
	validateProto := validate.File_buf_validate_validate_proto
	compiler := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(protocompile.CompositeResolver{
			&protocompile.SourceResolver{Accessor: protocompile.SourceAccessorFromMap(sources)},
			protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
				if path == validateProto.Path() {
					return protocompile.SearchResult{Desc: validateProto}, nil
				}
				return protocompile.SearchResult{}, protoregistryNotFound(path)
			}),
		}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	paths := make([]string, 0, len(sources))
	for p := range sources {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	files, err := compiler.Compile(context.Background(), paths...)
	if err != nil {
		return nil, err
	}
	set := image.FileSet(files, nil)
	data, err := proto.Marshal(set)
	if err != nil {
		return nil, err
	}
	return image.Parse(name, data)
}

type notFound string

func (n notFound) Error() string { return "file not found: " + string(n) }

func protoregistryNotFound(path string) error { return notFound(path) }

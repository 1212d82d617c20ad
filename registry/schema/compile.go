// Package schema turns what a client registers — a protobuf schema as .proto text or as a
// base64 FileDescriptorProto (Confluent's "serialized" format), with its references — into a
// compiled schema the gate's packages read, and judges two of them with the gate's own
// comparison.
package schema

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"github.com/acme/contracts/gate/image"
	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Compiled is one schema, compiled with everything it imports.
type Compiled struct {
	// Main is the schema's own file; the others in Image are its imports.
	Main  *descriptorpb.FileDescriptorProto
	Image *image.Image
}

// Serialized is the schema's own file as Confluent's serialized format: a base64
// FileDescriptorProto, without source positions.
func (c *Compiled) Serialized() (string, error) {
	f := proto.Clone(c.Main).(*descriptorpb.FileDescriptorProto)
	f.SourceCodeInfo = nil
	clearUnknown(f)
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(f)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(data), nil
}

// InvalidError says the schema itself is wrong (it does not parse, compile or link): the
// client's fault, never the registry's.
type InvalidError struct{ Err error }

func (e *InvalidError) Error() string { return e.Err.Error() }
func (e *InvalidError) Unwrap() error { return e.Err }

func invalid(format string, args ...any) error {
	return &InvalidError{fmt.Errorf(format, args...)}
}

// Compile compiles a schema. name is the file name a .proto text gets (a serialized schema
// names itself); refs maps each import path that a reference names to that schema's compiled
// file, and must hold every import besides the well-known types and buf/validate.
func Compile(ctx context.Context, name, text string, refs map[string]*descriptorpb.FileDescriptorProto) (*Compiled, error) {
	var main protocompile.SearchResult
	if f, ok := decodeSerialized(text); ok {
		name = f.GetName()
		main = protocompile.SearchResult{Proto: f}
	} else {
		main = protocompile.SearchResult{Source: strings.NewReader(text)}
	}
	if name == "" {
		return nil, invalid("the serialized schema's file has no name")
	}
	if _, clash := refs[name]; clash {
		return nil, invalid("the schema's file name %q is also the name of one of its references", name)
	}
	validateProto := validate.File_buf_validate_validate_proto
	compiler := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
			if path == name {
				return main, nil
			}
			if f, ok := refs[path]; ok {
				return protocompile.SearchResult{Proto: f}, nil
			}
			// buf/validate resolves without a reference, as in the gate's workspace; a
			// reference of that name (a client that registers it) takes precedence.
			if path == validateProto.Path() {
				return protocompile.SearchResult{Desc: validateProto}, nil
			}
			return protocompile.SearchResult{}, fmt.Errorf("%s: %w (no reference names it)", path, fs.ErrNotExist)
		})),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	files, err := compiler.Compile(ctx, name)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, invalid("%v", err)
	}
	set := image.FileSet(files[:1], func(fd *descriptorpb.FileDescriptorProto, f protoreflect.FileDescriptor) {
		clearUnknown(fd)
		markImport(fd, f.Path() != name)
	})
	im, err := image.New(name, set)
	if err != nil {
		return nil, invalid("%v", err)
	}
	return &Compiled{Main: set.File[len(set.File)-1], Image: im}, nil
}

// decodeSerialized reads a schema in the serialized format; ok is false for .proto text.
func decodeSerialized(text string) (*descriptorpb.FileDescriptorProto, bool) {
	text = strings.TrimSpace(text)
	if text == "" || strings.ContainsAny(text, " \n\t;{") {
		return nil, false
	}
	data, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return nil, false
	}
	f := &descriptorpb.FileDescriptorProto{}
	if err := proto.Unmarshal(data, f); err != nil || f.GetName() == "" {
		return nil, false
	}
	return f, true
}

// bufImageFileExtension is the field of buf's ImageFile extension on a file of a buf image;
// its field 1 says whether the file is an import. buf breaking --exclude-imports (what the
// gate runs) then judges only the schema's own file, as a registry judges one subject.
const bufImageFileExtension = 8042

func markImport(f *descriptorpb.FileDescriptorProto, isImport bool) {
	var ext []byte
	ext = protowire.AppendTag(ext, 1, protowire.VarintType)
	ext = protowire.AppendVarint(ext, protowire.EncodeBool(isImport))
	var raw []byte
	raw = protowire.AppendTag(raw, bufImageFileExtension, protowire.BytesType)
	raw = protowire.AppendBytes(raw, ext)
	f.ProtoReflect().SetUnknown(raw)
}

func clearUnknown(f *descriptorpb.FileDescriptorProto) { f.ProtoReflect().SetUnknown(nil) }

// IsInvalid says whether an error is the schema's fault.
func IsInvalid(err error) bool {
	var e *InvalidError
	return errors.As(err, &e)
}

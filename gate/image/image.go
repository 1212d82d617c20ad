// Package image loads compiled schemas: buf images (`buf build -o x.binpb`) and plain
// FileDescriptorSets (protoc --descriptor_set_out --include_imports). An image is decoded once;
// its declarations are indexed by name and source position on first use, and its descriptors
// are linked (resolved into protoreflect types) on first use.
package image

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// bufExtension is the field number of buf's ImageFileExtension on each file of a buf image; its
// field 1 says whether the file is an import (a dependency, or a file outside --path).
const bufExtension = 8042

// Image is one compiled schema.
type Image struct {
	// Name says where it came from, for messages ("the base 1a2b3c4", a path).
	Name string
	Set  *descriptorpb.FileDescriptorSet
	// imports are the files that are not the schema's own (its dependencies).
	imports map[string]bool

	linkOnce sync.Once
	linked   *protoregistry.Files
	linkErr  error

	indexOnce sync.Once
	index     *Index
}

// Read loads an image file.
func Read(path string) (*Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read image %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse decodes an image from its bytes; name says where they came from.
func Parse(name string, data []byte) (*Image, error) {
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(data, set); err != nil {
		return nil, fmt.Errorf("image %s is not a FileDescriptorSet or buf image: %w", name, err)
	}
	if len(set.GetFile()) == 0 {
		return nil, fmt.Errorf("image %s holds no file", name)
	}
	return New(name, set)
}

// New wraps a decoded set. Files are imports when buf marked them so; in a set without buf's
// marks (protoc's), the well-known types and buf/validate are the imports.
func New(name string, set *descriptorpb.FileDescriptorSet) (*Image, error) {
	im := &Image{Name: name, Set: set, imports: map[string]bool{}}
	marked := false
	seen := map[string]bool{}
	for _, f := range set.GetFile() {
		if f.GetName() == "" {
			return nil, fmt.Errorf("image %s has a file without a name", name)
		}
		if seen[f.GetName()] {
			return nil, fmt.Errorf("image %s holds %s twice", name, f.GetName())
		}
		seen[f.GetName()] = true
		isImport, ok := bufImport(f)
		marked = marked || ok
		if isImport {
			im.imports[f.GetName()] = true
		}
	}
	if !marked {
		for _, f := range set.GetFile() {
			if n := f.GetName(); strings.HasPrefix(n, "google/protobuf/") || strings.HasPrefix(n, "buf/validate/") {
				im.imports[n] = true
			}
		}
	}
	return im, nil
}

// bufImport reads buf's mark of a file: whether it is an import, and whether it is marked at all.
func bufImport(f *descriptorpb.FileDescriptorProto) (isImport, marked bool) {
	raw := f.ProtoReflect().GetUnknown()
	for len(raw) > 0 {
		num, typ, n := protowire.ConsumeTag(raw)
		if n < 0 {
			return false, false
		}
		m := protowire.ConsumeFieldValue(num, typ, raw[n:])
		if m < 0 {
			return false, false
		}
		if num == bufExtension && typ == protowire.BytesType {
			ext, _ := protowire.ConsumeBytes(raw[n:])
			for len(ext) > 0 {
				enum, etyp, k := protowire.ConsumeTag(ext)
				if k < 0 {
					break
				}
				l := protowire.ConsumeFieldValue(enum, etyp, ext[k:])
				if l < 0 {
					break
				}
				if enum == 1 && etyp == protowire.VarintType {
					v, _ := protowire.ConsumeVarint(ext[k:])
					isImport = v != 0
				}
				ext = ext[k+l:]
			}
			marked = true
		}
		raw = raw[n+m:]
	}
	return isImport, marked
}

// IsImport says whether a file is one of the schema's dependencies rather than its own.
func (im *Image) IsImport(path string) bool { return im.imports[path] }

// Own lists the schema's own files (not its imports), in the image's order.
func (im *Image) Own() []*descriptorpb.FileDescriptorProto {
	var out []*descriptorpb.FileDescriptorProto
	for _, f := range im.Set.GetFile() {
		if !im.imports[f.GetName()] {
			out = append(out, f)
		}
	}
	return out
}

// Link resolves the image into protoreflect descriptors, once.
func (im *Image) Link() (*protoregistry.Files, error) {
	im.linkOnce.Do(func() {
		im.linked, im.linkErr = protodesc.NewFiles(im.Set)
		if im.linkErr != nil {
			im.linkErr = fmt.Errorf("link image %s: %w", im.Name, im.linkErr)
		}
	})
	return im.linked, im.linkErr
}

// Descriptors lists the linked files in the image's order, each with whether it is an import.
func (im *Image) Descriptors() ([]protoreflect.FileDescriptor, []bool, error) {
	files, err := im.Link()
	if err != nil {
		return nil, nil, err
	}
	var out []protoreflect.FileDescriptor
	var imports []bool
	for _, f := range im.Set.GetFile() {
		fd, err := files.FindFileByPath(f.GetName())
		if err != nil {
			return nil, nil, fmt.Errorf("image %s: %w", im.Name, err)
		}
		out = append(out, fd)
		imports = append(imports, im.imports[f.GetName()])
	}
	return out, imports, nil
}

package image

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Index is where every declaration of an image's own files is: by fully-qualified name (the
// names exceptions and findings use) and by source span (to pin a finding, which buf reports by
// position, to the element it concerns).
type Index struct {
	names map[string]bool
	spans map[string][]span // by file
	// fingerprints of each file: its descriptor without positions, and its comments.
	fingerprints map[string]string
}

type span struct {
	startLine, startCol, endLine, endCol int // 1-based, as buf reports positions
	name                                 string
}

// Index builds the image's index on first use.
func (im *Image) Index() *Index {
	im.indexOnce.Do(func() { im.index = buildIndex(im.Own()) })
	return im.index
}

func buildIndex(files []*descriptorpb.FileDescriptorProto) *Index {
	ix := &Index{names: map[string]bool{}, spans: map[string][]span{}, fingerprints: map[string]string{}}
	for _, f := range files {
		ix.addFile(f)
	}
	return ix
}

func (ix *Index) addFile(f *descriptorpb.FileDescriptorProto) {
	locations := map[string][]int32{}
	for _, l := range f.GetSourceCodeInfo().GetLocation() {
		locations[key(l.GetPath())] = l.GetSpan()
	}
	var found []span
	add := func(name string, path []int32) {
		ix.names[name] = true
		s := locations[key(path)]
		switch len(s) {
		case 3:
			found = append(found, span{int(s[0]) + 1, int(s[1]) + 1, int(s[0]) + 1, int(s[2]) + 1, name})
		case 4:
			found = append(found, span{int(s[0]) + 1, int(s[1]) + 1, int(s[2]) + 1, int(s[3]) + 1, name})
		}
	}
	pkg := f.GetPackage()
	scoped := func(scope, name string) string {
		if scope == "" {
			return name
		}
		return scope + "." + name
	}
	var enums func(list []*descriptorpb.EnumDescriptorProto, scope string, path []int32)
	enums = func(list []*descriptorpb.EnumDescriptorProto, scope string, path []int32) {
		for i, e := range list {
			p := with(path, int32(i))
			add(scoped(scope, e.GetName()), p)
			for j, v := range e.GetValue() {
				// Enum values are scoped beside their enum, as in protobuf.
				add(scoped(scope, v.GetName()), with(p, 2, int32(j)))
			}
		}
	}
	var messages func(list []*descriptorpb.DescriptorProto, scope string, path []int32)
	messages = func(list []*descriptorpb.DescriptorProto, scope string, path []int32) {
		for i, m := range list {
			p := with(path, int32(i))
			name := scoped(scope, m.GetName())
			add(name, p)
			for j, fd := range m.GetField() {
				add(name+"."+fd.GetName(), with(p, 2, int32(j)))
			}
			for j, o := range m.GetOneofDecl() {
				add(name+"."+o.GetName(), with(p, 8, int32(j)))
			}
			for j, x := range m.GetExtension() {
				add(scoped(name, x.GetName()), with(p, 6, int32(j)))
			}
			enums(m.GetEnumType(), name, with(p, 4))
			messages(m.GetNestedType(), name, with(p, 3))
		}
	}
	messages(f.GetMessageType(), pkg, []int32{4})
	enums(f.GetEnumType(), pkg, []int32{5})
	for i, s := range f.GetService() {
		name := scoped(pkg, s.GetName())
		add(name, []int32{6, int32(i)})
		for j, m := range s.GetMethod() {
			add(name+"."+m.GetName(), []int32{6, int32(i), 2, int32(j)})
		}
	}
	for i, x := range f.GetExtension() {
		add(scoped(pkg, x.GetName()), []int32{7, int32(i)})
	}
	ix.names[f.GetName()] = true
	ix.spans[f.GetName()] = found
	ix.fingerprints[f.GetName()] = fingerprint(f)
}

func with(path []int32, more ...int32) []int32 {
	return append(append(make([]int32, 0, len(path)+len(more)), path...), more...)
}

func key(path []int32) string {
	b := make([]byte, 0, 4*len(path))
	for _, p := range path {
		b = binary.LittleEndian.AppendUint32(b, uint32(p))
	}
	return string(b)
}

// fingerprint is a file's content apart from positions: its descriptor without source info,
// and its comments (which live in the source info beside positions that move with any edit).
func fingerprint(f *descriptorpb.FileDescriptorProto) string {
	stripped := proto.Clone(f).(*descriptorpb.FileDescriptorProto)
	stripped.SourceCodeInfo = nil
	data, _ := proto.MarshalOptions{Deterministic: true}.Marshal(stripped)
	h := sha256.New()
	h.Write(data)
	var comments []string
	for _, l := range f.GetSourceCodeInfo().GetLocation() {
		if l.GetLeadingComments() != "" || l.GetTrailingComments() != "" || len(l.GetLeadingDetachedComments()) > 0 {
			comments = append(comments, key(l.GetPath())+"\x00"+l.GetLeadingComments()+"\x00"+l.GetTrailingComments()+"\x00"+strings.Join(l.GetLeadingDetachedComments(), "\x00"))
		}
	}
	sort.Strings(comments)
	for _, c := range comments {
		h.Write([]byte(c))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Has says whether a fully-qualified name (or a file path) is declared in the image.
func (ix *Index) Has(name string) bool { return ix.names[name] }

// Names lists every declared name, sorted.
func (ix *Index) Names() []string {
	out := make([]string, 0, len(ix.names))
	for n := range ix.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// At is the innermost declaration whose span holds a position (1-based line and column), or ""
// when none does.
func (ix *Index) At(file string, line, column int) string {
	best, bestLines, bestCols := "", -1, -1
	for _, s := range ix.spans[file] {
		afterStart := line > s.startLine || (line == s.startLine && column >= s.startCol)
		beforeEnd := line < s.endLine || (line == s.endLine && column <= s.endCol)
		if !afterStart || !beforeEnd {
			continue
		}
		lines, cols := s.endLine-s.startLine, s.endCol-s.startCol
		if bestLines < 0 || lines < bestLines || (lines == bestLines && cols <= bestCols) {
			best, bestLines, bestCols = s.name, lines, cols
		}
	}
	return best
}

// Files lists the indexed files.
func (ix *Index) Files() []string {
	out := make([]string, 0, len(ix.fingerprints))
	for f := range ix.fingerprints {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Fingerprint is a file's content apart from positions ("" when the file is not indexed).
func (ix *Index) Fingerprint(file string) string { return ix.fingerprints[file] }

package image

import (
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// FileSet lays compiled files out as a FileDescriptorSet the way `buf build -o` and protoc's
// --include_imports do: every file once, each after the files it imports. edit, when not nil,
// sees each file's descriptor before it is added (to mark imports or drop unknown fields).
func FileSet[F protoreflect.FileDescriptor](files []F, edit func(*descriptorpb.FileDescriptorProto, protoreflect.FileDescriptor)) *descriptorpb.FileDescriptorSet {
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		imports := f.Imports()
		for i := 0; i < imports.Len(); i++ {
			add(imports.Get(i).FileDescriptor)
		}
		fd := protodesc.ToFileDescriptorProto(f)
		if edit != nil {
			edit(fd, f)
		}
		set.File = append(set.File, fd)
	}
	for _, f := range files {
		add(f)
	}
	return set
}

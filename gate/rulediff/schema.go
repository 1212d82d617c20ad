package rulediff

import (
	"fmt"
	"sync"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// schema is one side of a comparison: its messages and RPCs by name (imports included), and,
// when a rule must be evaluated, a protovalidate validator for its dynamic messages.
type schema struct {
	files    []File
	messages map[protoreflect.FullName]protoreflect.MessageDescriptor
	methods  []protoreflect.MethodDescriptor
	// extensions by the message they extend, then by number: predefined rules.
	extensions map[protoreflect.FullName]map[protoreflect.FieldNumber]protoreflect.ExtensionDescriptor

	once      sync.Once
	validator protovalidate.Validator
	vErr      error
}

func newSchema(files []File) *schema {
	s := &schema{files: files, messages: map[protoreflect.FullName]protoreflect.MessageDescriptor{},
		extensions: map[protoreflect.FullName]map[protoreflect.FieldNumber]protoreflect.ExtensionDescriptor{}}
	for _, f := range files {
		fd := f.Descriptor
		_ = walkMessages(fd.Messages(), func(m protoreflect.MessageDescriptor) error {
			s.messages[m.FullName()] = m
			s.addExtensions(m.Extensions())
			return nil
		})
		s.addExtensions(fd.Extensions())
		services := fd.Services()
		for i := 0; i < services.Len(); i++ {
			methods := services.Get(i).Methods()
			for j := 0; j < methods.Len(); j++ {
				s.methods = append(s.methods, methods.Get(j))
			}
		}
	}
	return s
}

func (s *schema) addExtensions(list protoreflect.ExtensionDescriptors) {
	for i := 0; i < list.Len(); i++ {
		x := list.Get(i)
		extendee := x.ContainingMessage().FullName()
		if s.extensions[extendee] == nil {
			s.extensions[extendee] = map[protoreflect.FieldNumber]protoreflect.ExtensionDescriptor{}
		}
		s.extensions[extendee][x.Number()] = x
	}
}

// validatorFor is a protovalidate validator that knows this schema's extensions (its predefined
// rules), built on first use: most comparisons never evaluate a rule.
func (s *schema) validatorFor() (protovalidate.Validator, error) {
	s.once.Do(func() {
		files := &protoregistry.Files{}
		for _, f := range s.files {
			// A file registered twice, or a conflict with another, leaves its extensions out; the
			// rules that need them then fail to compile, and that is reported.
			_ = files.RegisterFile(f.Descriptor)
		}
		s.validator, s.vErr = protovalidate.New(protovalidate.WithExtensionTypeResolver(dynamicpb.NewTypes(files)))
		if s.vErr != nil {
			s.vErr = fmt.Errorf("start protovalidate: %w", s.vErr)
		}
	})
	return s.validator, s.vErr
}

// value is what a set of field rules constrains: a field's value, a repeated field's items,
// or a map's keys or values.
type value struct {
	kind  protoreflect.Kind
	enum  protoreflect.EnumDescriptor
	field protoreflect.FieldDescriptor
}

func valueOf(fd protoreflect.FieldDescriptor) value {
	return value{kind: fd.Kind(), enum: fd.Enum(), field: fd}
}

func (v value) mapKey() value {
	if v.field == nil || !v.field.IsMap() {
		return value{}
	}
	return valueOf(v.field.MapKey())
}

func (v value) mapValue() value {
	if v.field == nil || !v.field.IsMap() {
		return value{}
	}
	return valueOf(v.field.MapValue())
}

package schema

import (
	"context"
	"fmt"

	"github.com/acme/contracts/gate/compare"
	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/image"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Judge compares schemas with the gate's comparison (compare.Comparer.Images): buf breaking
// under the contracts' own buf.yaml, so buf's rules and the VALIDATE_… rules of the gate's
// check plugin, exactly as `make check` judges a change.
type Judge struct {
	Comparer compare.Comparer
}

// Breaks lists what breaks when clients of base meet head: head judged against base.
func (j Judge) Breaks(ctx context.Context, base, head *Compiled) ([]findings.Finding, error) {
	// One subject is one file: when its versions name the file differently (a .proto text
	// and a client's serialized descriptor), the head is judged under the base's name, or
	// buf would see a file deleted and another added.
	headImage := head.Image
	if head.Main.GetName() != base.Main.GetName() {
		var err error
		if headImage, err = renamed(head, base.Main.GetName()); err != nil {
			return nil, err
		}
	}
	out, err := j.Comparer.Images(ctx, base.Image, headImage)
	if err != nil {
		return nil, fmt.Errorf("compare with buf breaking: %w", err)
	}
	return out, nil
}

func renamed(c *Compiled, name string) (*image.Image, error) {
	set := proto.Clone(c.Image.Set).(*descriptorpb.FileDescriptorSet)
	for _, f := range set.GetFile() {
		if f.GetName() == name {
			return nil, invalid("the schema imports %s, the name of the subject's own file", name)
		}
	}
	for _, f := range set.GetFile() {
		if f.GetName() == c.Main.GetName() {
			f.Name = proto.String(name)
		}
	}
	return image.New(name, set)
}

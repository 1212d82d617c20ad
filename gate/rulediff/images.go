package rulediff

import "github.com/acme/contracts/gate/image"

// Images compares the rules of two images: the base (what clients and servers run today) and
// the head (the change).
func Images(base, head *image.Image) ([]Finding, error) {
	b, err := files(base)
	if err != nil {
		return nil, err
	}
	h, err := files(head)
	if err != nil {
		return nil, err
	}
	return Diff(b, h)
}

func files(im *image.Image) ([]File, error) {
	descriptors, imports, err := im.Descriptors()
	if err != nil {
		return nil, err
	}
	out := make([]File, len(descriptors))
	for i, d := range descriptors {
		out[i] = File{Descriptor: d, Import: imports[i]}
	}
	return out, nil
}

package image_test

import "github.com/acme/contracts/gate/image"

func parse(name string, data []byte) (*image.Image, error) { return image.Parse(name, data) }
